// Creating a user (createUser, createUserComplete): one transaction holding the user, their assignments,
// the audit entry and the invitation e-mail; the identity account last, just before commit.
import type { Kysely, Transaction } from 'kysely';
import type { IdentityDirectory } from '../../identity/directory.ts';
import { accountSetupUrl } from '../../dev-idp/account-setup.ts';
import { enqueueMail, logQueuedMails, type QueuedMail } from '../../mail/outbox.ts';
import { accountInvitationMail } from '../../mail/templates.ts';
import type { Actor } from '../../core/actor.ts';
import { changedFields, writeAudit } from '../audit/audit.repository.ts';
import type { Database } from '../../db/schema.ts';
import { requireInheritanceWithinReach, type PlannedAssignment } from './users-plans.ts';
import { loadAssignments, type VisibleUser } from './users-read.repository.ts';
import { personalFields } from '../../api/users.presenter.ts';
import {
  accountOf,
  applyAssignments,
  describeAssignments,
  diffAssignments,
  emailInUse,
  emailTaken,
  insertUser,
  mapWriteError,
  setAuthId,
  userAuditEntry,
  type NewUserFields,
} from './users-write.repository.ts';

/** `plan` answers the assignments (looked up and checked in the transaction); the answer holds all of them. */
export async function createUser(
  db: Kysely<Database>,
  directory: IdentityDirectory,
  actor: Actor,
  fields: NewUserFields,
  plan: (trx: Transaction<Database>) => Promise<PlannedAssignment[]>,
): Promise<Omit<VisibleUser, 'scope'>> {
  const made = { subject: null as string | null };
  const queued: QueuedMail[] = [];
  try {
    const created = await db.transaction().execute(async (trx) => {
      const planned = await plan(trx);
      await requireInheritanceWithinReach(trx, actor, [...new Set(planned.filter((a) => a.inheritsToChildren).map((a) => a.organizationId))]);
      if (await emailInUse(trx, fields.email)) throw emailTaken();
      const inserted = await insertUser(trx, fields);
      await applyAssignments(trx, inserted.id, diffAssignments([], planned));
      const assignments = await loadAssignments(trx, [inserted.id]);
      const changes = changedFields({}, { ...personalFields(inserted), isActive: true, assignments: describeAssignments(assignments) });
      await writeAudit(trx, { ...userAuditEntry(actor, inserted.id, assignments), action: 'user.create', changes });
      const account = await directory.createAccount(trx, accountOf(inserted));
      // Only an account this request created is deleted to undo it; a reused one was nobody's before and stays.
      if (!account.reused) made.subject = account.subject;
      const user = await setAuthId(trx, inserted.id, account.subject);
      await enqueueMail(trx, accountInvitationMail({ email: user.email, firstName: user.first_name, lastName: user.last_name, setupUrl: accountSetupUrl(account.subject) }), queued);
      return { user, assignments };
    });
    logQueuedMails(queued);
    return created;
  } catch (error) {
    // A remote directory cannot roll back with us: undo the account it created (never a reused one).
    if (made.subject && directory.kind !== 'local') await directory.deleteAccount(db, made.subject).catch(() => undefined);
    throw mapWriteError(error);
  }
}
