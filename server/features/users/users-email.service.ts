// Changing a person's e-mail: the new address waits (users.pending_email) until its owner confirms it through the
// single-use link sent there; only then do the portal's e-mail and the sign-in identity change. The current
// address is told when the change is asked for. This proves the new mailbox exists and is read; it does NOT
// prove the person agrees: an editor who gives an address they control can confirm it themselves. Closing that
// (the person's consent from the current address, or only the back office changing another's address) is
// open in issue 19.
import { createHash, randomBytes } from 'node:crypto';
import type { Actor } from '../../core/actor.ts';
import { conflict, DomainError, notFound } from '../../core/errors.ts';
import { inTransaction, type StepLog, type UnitOfWork } from '../../db/unit-of-work.ts';
import { emailChangeConfirmMail, emailChangeNoticeMail } from '../../mail/templates.ts';
import { writeAudit } from '../audit/audit.repository.ts';
import type { ServiceDeps } from '../services.ts';
import { deleteEmailChangeTokens, findEmailChangeToken, replaceEmailChangeToken } from './users-email.repository.ts';
import { findUser, loadAssignments, type AssignmentRecord, type UserRow } from './users-read.repository.ts';
import { emailInUse, updateUserRow } from './users-write.repository.ts';
import { mapWriteError, WRITE_MESSAGES } from './users.errors.ts';
import { accountOf, userAuditEntry } from './users.model.ts';

/** The portal's page where a person confirms a new address (server/plugins/email-confirmation.ts). */
export const EMAIL_CONFIRMATION_PATH = '/compte/confirmer-email';
export const EMAIL_CHANGE_TTL_MS = 24 * 3600 * 1000;

export const EMAIL_CHANGE_MESSAGES = {
  invalidLink: "Ce lien n'est plus valable : il a expiré, a déjà servi, a été remplacé par une demande plus récente, ou n'est pas correct.",
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
  await deps.outbox.enqueue(uow, emailChangeConfirmMail({ email: newEmail, ...names, confirmUrl }));
  await deps.outbox.enqueue(uow, emailChangeNoticeMail({ email: before.email, newEmail, ...names }));
  await writeAudit(trx, {
    ...userAuditEntry({ userId: actor.userId, email: actor.email }, before.id, input.assignments),
    action: 'user.email.request',
    changes: { pendingEmail: { before: before.pending_email, after: newEmail } },
  });
}

export function usersEmailService(deps: ServiceDeps) {
  const { db, directory } = deps;

  return {
    /** The address a confirmation link would apply, or null when the link is not (or no longer) good. Changes nothing. */
    async emailChangeOf(token: string): Promise<{ email: string } | null> {
      if (!TOKEN_FORMAT.test(token)) return null;
      return db.transaction().execute(async (trx) => {
        const link = await findEmailChangeToken(trx, hashOf(token));
        if (!link) return null;
        const user = await findUser(trx, link.user_id);
        return user && user.pending_email?.toLowerCase() === link.email.toLowerCase() ? { email: link.email } : null;
      });
    },

    /**
     * The person confirms their new address: the user's e-mail and the sign-in identity change, the link and
     * every other link of the user are used up. 404 for a link that is not good (any reason alike), 409 when the
     * address was taken meanwhile.
     */
    async confirmEmailChange(token: string, log: StepLog = deps.log): Promise<{ email: string }> {
      if (!TOKEN_FORMAT.test(token)) throw notFound(EMAIL_CHANGE_MESSAGES.invalidLink);
      try {
        return await inTransaction(
          db,
          async (uow) => {
            const { trx } = uow;
            const link = await findEmailChangeToken(trx, hashOf(token), { forUpdate: true });
            if (!link) throw notFound(EMAIL_CHANGE_MESSAGES.invalidLink);
            const user = await findUser(trx, link.user_id, { forUpdate: true });
            if (!user || user.pending_email?.toLowerCase() !== link.email.toLowerCase()) throw notFound(EMAIL_CHANGE_MESSAGES.invalidLink);
            if (await emailInUse(trx, link.email, user.id)) throw conflict(EMAIL_CHANGE_MESSAGES.emailTaken);
            await deleteEmailChangeTokens(trx, user.id);
            const updated = (await updateUserRow(trx, user.id, { email: link.email, pending_email: null }))!;
            const assignments = await loadAssignments(trx, [user.id]);
            await writeAudit(trx, {
              // The person themselves, through the link sent to the new address.
              ...userAuditEntry({ userId: user.id, email: link.email }, user.id, assignments),
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
