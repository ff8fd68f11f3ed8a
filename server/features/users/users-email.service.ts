// Changing a person's e-mail: the new address waits (users.pending_email) until the person confirms it, signed in
// with their current account, through the single-use link sent there; only then do the portal's e-mail and the
// sign-in identity change. The current address is told when the change is asked for. Both proofs are needed:
// the link proves the new mailbox is read, the session proves the person agrees. An editor who gives an
// address they control gets the link but cannot confirm it: they cannot sign in as the person (issue 19).
import { createHash, randomBytes } from 'node:crypto';
import type { Actor } from '../../core/actor.ts';
import { conflict, DomainError, forbidden, notFound } from '../../core/errors.ts';
import { inTransaction, type StepLog, type UnitOfWork } from '../../db/unit-of-work.ts';
import { emailChangeConfirmMail, emailChangeNoticeMail } from '../../mail/templates.ts';
import { writeAudit } from '../audit/audit.repository.ts';
import type { ServiceDeps } from '../services.ts';
import { deleteEmailChangeTokens, findEmailChangeToken, replaceEmailChangeToken } from './users-email.repository.ts';
import { findUser, loadAssignments, type AssignmentRecord, type UserRow } from './users-read.repository.ts';
import { emailInUse, updateUserRow } from './users-write.repository.ts';
import { mapWriteError, WRITE_MESSAGES } from './users.errors.ts';
import { accountOf, userAuditEntry } from './users.model.ts';

/** The SPA's page where a person confirms a new address (src/routes/email-confirmation.lazy.tsx). */
export const EMAIL_CONFIRMATION_PATH = '/compte/confirmer-email';
export const EMAIL_CHANGE_TTL_MS = 24 * 3600 * 1000;

export const EMAIL_CHANGE_MESSAGES = {
  invalidLink: "Ce lien n'est plus valable : il a expiré, a déjà servi, a été remplacé par une demande plus récente, ou n'est pas correct.",
  otherAccount:
    "Ce lien concerne un autre compte : seule la personne dont l'adresse change peut la confirmer, connectée avec son adresse actuelle. Déconnectez-vous, puis ouvrez de nouveau le lien.",
  emailTaken: `${WRITE_MESSAGES.emailTaken} Le changement d'adresse ne peut pas être confirmé.`,
} as const;

/** 32 random bytes: the link's token. Only its SHA-256 is stored, so that the table alone gives no usable link. */
const newToken = () => randomBytes(32).toString('base64url');
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/**
 * Inside an edit's unit of work, once the user's row holds `pending_email`: the link (24 h) to the new address,
 * the notice to the current one, the audit entry. `before` is the user as they were.
 */
export async function requestEmailChange(
  deps: Pick<ServiceDeps, 'outbox' | 'publicOrigin'>,
  uow: UnitOfWork,
  input: { actor: Actor; before: UserRow; newEmail: string; assignments: readonly AssignmentRecord[] },
): Promise<void> {
  const { trx } = uow;
  const { actor, before, newEmail } = input;
  const token = newToken();
  await replaceEmailChangeToken(trx, { userId: before.id, email: newEmail, tokenHash: hashOf(token), expiresAt: new Date(Date.now() + EMAIL_CHANGE_TTL_MS) });
  const confirmUrl = `${deps.publicOrigin}${EMAIL_CONFIRMATION_PATH}?token=${token}`;
  const names = { firstName: before.first_name, lastName: before.last_name };
  await deps.outbox.enqueue(uow, emailChangeConfirmMail({ email: newEmail, currentEmail: before.email, requestedBy: actor.email, ...names, confirmUrl }));
  await deps.outbox.enqueue(uow, emailChangeNoticeMail({ email: before.email, newEmail, requestedBy: actor.email, ...names }));
  await writeAudit(trx, {
    ...userAuditEntry({ userId: actor.userId, email: actor.email }, before, input.assignments),
    subject: { name: `${before.first_name} ${before.last_name}`, emails: [before.email, newEmail] },
    action: 'user.email.request',
    changes: { pendingEmail: { before: before.pending_email, after: newEmail } },
  });
}

export function usersEmailService(deps: ServiceDeps) {
  const { db, directory } = deps;

  return {
    /**
     * The person, signed in as themselves, confirms their new address: the user's e-mail and the sign-in
     * identity change, the link and every other link of the user are used up. 404 for a link that is not good
     * (any reason alike), 403 for a good link of another account (nothing used up), 409 when the address was
     * taken meanwhile.
     */
    async confirmEmailChange(actor: Actor, token: string, log: StepLog = deps.log): Promise<{ email: string }> {
      if (!TOKEN_FORMAT.test(token)) throw notFound(EMAIL_CHANGE_MESSAGES.invalidLink);
      try {
        return await inTransaction(
          db,
          async (uow) => {
            const { trx } = uow;
            // The user's row is locked before the link's, in the order an edit takes them (user, then links): the
            // two never wait on each other crosswise. The link is read again once locked.
            const seen = await findEmailChangeToken(trx, hashOf(token));
            if (!seen) throw notFound(EMAIL_CHANGE_MESSAGES.invalidLink);
            if (seen.user_id !== actor.userId) throw forbidden(EMAIL_CHANGE_MESSAGES.otherAccount);
            const user = await findUser(trx, seen.user_id, { forUpdate: true });
            const link = await findEmailChangeToken(trx, hashOf(token), { forUpdate: true });
            if (!user || !link || user.pending_email?.toLowerCase() !== link.email.toLowerCase()) throw notFound(EMAIL_CHANGE_MESSAGES.invalidLink);
            if (await emailInUse(trx, link.email, user.id)) throw conflict(EMAIL_CHANGE_MESSAGES.emailTaken);
            await deleteEmailChangeTokens(trx, user.id);
            const updated = (await updateUserRow(trx, user.id, { email: link.email, pending_email: null }))!;
            const assignments = await loadAssignments(trx, [user.id]);
            await writeAudit(trx, {
              // The person themselves, signed in, through the link sent to the new address.
              ...userAuditEntry({ userId: user.id, email: link.email }, user, assignments),
              subject: { name: `${user.first_name} ${user.last_name}`, emails: [link.email, user.email] },
              action: 'user.email.confirm',
              changes: { email: { before: user.email, after: updated.email }, pendingEmail: { before: user.pending_email, after: null } },
            });
            const subject = updated.auth_id;
            if (subject) {
              await directory.updateAccount(trx, subject, accountOf(updated));
              if (directory.kind !== 'local') {
                uow.onRollback({
                  what: 'updateAccount',
                  run: () => directory.updateAccount(db, subject, accountOf(user)),
                  failure: { message: "le compte de connexion n'a pas pu être remis dans son état précédent", details: { userId: user.id } },
                });
              }
              // The sessions opened with the old address end: the person signs in again with the new one.
              await directory.revokeSessions(trx, subject);
            }
            return { email: updated.email };
          },
          log,
        );
      } catch (error) {
        if (error instanceof DomainError) throw error;
        // The address taken meanwhile, by a user or another sign-in identity: as taken.
        const mapped = mapWriteError(error);
        throw mapped instanceof DomainError && mapped.kind === 'conflict' ? conflict(EMAIL_CHANGE_MESSAGES.emailTaken) : mapped;
      }
    },
  };
}
