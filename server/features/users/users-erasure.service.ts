// The permanent delete of a person and the erasure that keeps the journal honest (issue 23): in one unit of
// work, the delete's journal entry, the person's pending requests cancelled, every copy of their personal data
// replaced by their pseudonym ('Utilisateur supprimé n° 12') or dropped, their rows deleted, their sign-in
// account disabled (deleted once the commit succeeded). Used by the API's delete (users-edit.service.ts) and,
// without a request, by the portal's own jobs (`deleteBySystem`, author 'Système').
import { auditAuthor, type Actor } from '../../core/actor.ts';
import { forbidden } from '../../core/errors.ts';
import type { UserRow } from '../../db/schema.ts';
import { inTransaction, type StepLog, type UnitOfWork } from '../../db/unit-of-work.ts';
import { writeAudit, writeAudits } from '../audit/audit.repository.ts';
import { describeAssignments, personalFields, userAuditEntry } from './users.model.ts';
import { loadAssignments, type AssignmentRecord } from './users-read.repository.ts';
import { cancelPendingRequestsOf, eraseBulkReports, eraseJournal, eraseMail, eraseNameRangeStart, eraseRecordedSearches, eraseRequests, formerAddressesOf, pseudonymNumber, requestsAtFormerAddresses } from './users-erasure.repository.ts';
import { addressesOf, addressesPattern, ERASED_MAIL_BODY, ERASED_VALUE, ERASURE_CANCELLATION_REASON, namingTerms, pseudonym, SYSTEM_AUTHOR } from './users-erasure.model.ts';
import { deleteUserRows } from './users-write.repository.ts';
import type { ServiceDeps as UsersDeps } from '../services.ts';

/** Who deletes: a person (the API's caller) or the portal itself (SYSTEM_ACTOR's jobs, or SYSTEM_AUTHOR). */
export type ErasureAuthor = Pick<Actor, 'userId' | 'email' | 'isSystem'> | typeof SYSTEM_AUTHOR;

/** What an erasure changed, for the caller's log and the tests. */
export interface ErasureOutcome {
  pseudonym: string;
  journalEntries: number;
  requestsCancelled: number;
  requests: number;
  mailsDropped: number;
}

/**
 * Replaces every copy of this person's personal data with their pseudonym, in the caller's transaction, before
 * their row is deleted (the requests' foreign keys to it are still set). A second call for the same person
 * finds the same number and changes nothing more.
 */
export async function erasePerson(uow: UnitOfWork, user: Pick<UserRow, 'id' | 'email' | 'pending_email'> & Partial<Pick<UserRow, 'last_name'>>, author: ErasureAuthor): Promise<ErasureOutcome> {
  const { trx } = uow;
  // As the journal names them: the portal's own deletes by 'Système', without an author's id (auditAuthor).
  const by = auditAuthor(author);
  const p = pseudonym(await pseudonymNumber(trx, user.id));
  const addresses = addressesOf(user);
  // The e-mails sent to an address they had before, and the requests made there before they left it, are theirs
  // too (read before the journal that records it is erased).
  const former = await formerAddressesOf(trx, user.id, addresses);
  const mailAddresses = [...addresses, ...former.map((f) => f.address)];
  const invitee = { addresses, requestIds: await requestsAtFormerAddresses(trx, user.id, former) };
  // Their pending requests are cancelled first (a requester or invitee gone: nobody to tell, nobody to give the
  // role to); the cancellations' entries are then erased with the rest.
  const cancelled = await cancelPendingRequestsOf(trx, user.id, invitee, { userId: by.userId, email: by.email ?? by.name ?? SYSTEM_AUTHOR.name }, ERASURE_CANCELLATION_REASON);
  await writeAudits(
    trx,
    cancelled.map((row) => ({
      actor: by,
      action: 'invitation.cancel' as const,
      entityType: 'invitation' as const,
      entityId: row.id,
      organizationId: row.organization_id,
      subject: { emails: [row.invitee_email] },
      changes: { status: { before: 'PENDING', after: 'CANCELLED' }, cancellationReason: ERASURE_CANCELLATION_REASON },
    })),
  );
  const journalEntries = await eraseJournal(trx, user.id, invitee, p);
  // A search of their name or address that an export recorded with its filters.
  await eraseRecordedSearches(trx, namingTerms(user, mailAddresses), ERASED_VALUE);
  const requests = await eraseRequests(trx, user.id, invitee, p.name);
  const mail = await eraseMail(trx, { addresses: mailAddresses, email: user.email, pending: user.pending_email }, addressesPattern(mailAddresses), { name: p.name, body: ERASED_MAIL_BODY });
  await eraseBulkReports(trx, user.id, p.name);
  return { pseudonym: p.name, journalEntries, requestsCancelled: cancelled.length, requests, mailsDropped: mail.dropped };
}

/**
 * The permanent delete of a locked user the caller may delete: the journal's entry, the erasure, the rows
 * (user_search and its counts follow by their triggers; a range of the list by name starting at them moves), and the sign-in account, disabled in the transaction
 * (enabled again if the commit fails and the user was active) and deleted once the commit succeeded: a failure
 * then is logged and leaves a disabled account, never a deleted account with a live user.
 */
export async function removePerson(deps: Pick<UsersDeps, 'db' | 'directory'>, uow: UnitOfWork, user: UserRow, assignments: readonly AssignmentRecord[], author: ErasureAuthor): Promise<ErasureOutcome> {
  const { db, directory } = deps;
  const { trx } = uow;
  await writeAudit(trx, {
    ...userAuditEntry(author, user, assignments),
    action: 'user.delete',
    changes: {
      ...Object.fromEntries(Object.entries(personalFields(user)).map(([field, before]) => [field, { before, after: null }])),
      assignments: { before: describeAssignments(assignments), after: [] },
      // For the account figures (issue 24): the warning the account was under (a deletion of a warned account counts
      // apart), and a back-office account's type (an employer administrator's figures leave it out, as their list).
      ...(user.dormancy_warned_at ? { dormancyWarnedAt: { before: user.dormancy_warned_at.toISOString(), after: null } } : {}),
      ...(user.user_type === 'BACKOFFICE' ? { userType: { before: user.user_type, after: null } } : {}),
    },
  });
  const outcome = await erasePerson(uow, user, author);
  await deleteUserRows(trx, user.id);
  await eraseNameRangeStart(trx, user.id);
  const subject = user.auth_id;
  if (!subject) return outcome;
  await directory.disableAccount(trx, subject);
  await directory.revokeSessions(trx, subject);
  if (directory.kind !== 'local' && user.is_active) {
    uow.onRollback({
      what: 'enableAccount',
      run: () => directory.enableAccount(db, subject),
      failure: { message: "le compte de connexion n'a pas pu être réactivé après l'échec de la suppression", details: { userId: user.id } },
    });
  }
  uow.afterCommit({
    what: 'deleteAccount',
    run: () => directory.deleteAccount(db, subject),
    failure: { message: 'utilisateur supprimé ; son compte de connexion, désactivé, reste à supprimer', details: { userId: user.id } },
  });
  return outcome;
}

export function usersErasureService(deps: UsersDeps) {
  return {
    /**
     * The permanent delete the portal makes by itself (the dormant accounts' job): no request, no caller's
     * rights, author 'Système'. Answers null when the user is gone already. A back-office account is never
     * deleted this way (issue 23: warned and deactivated only).
     */
    async deleteBySystem(userId: string, log: StepLog = deps.log): Promise<ErasureOutcome | null> {
      return inTransaction(
        deps.db,
        async (uow) => {
          const user = await uow.trx.selectFrom('users').selectAll().where('id', '=', userId).forUpdate().executeTakeFirst();
          if (!user) return null;
          if (user.user_type === 'BACKOFFICE') throw forbidden("Un compte du back-office n'est jamais supprimé automatiquement.");
          return removePerson(deps, uow, user, await loadAssignments(uow.trx, [user.id]), SYSTEM_AUTHOR);
        },
        log,
      );
    },
  };
}
