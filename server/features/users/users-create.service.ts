// Creating a user (createUser, createUserComplete): one unit of work holding the user, their assignments,
// the audit entry and the invitation e-mail; the identity account last, just before commit.
import type { Actor } from '../../core/actor.ts';
import type { UserRow } from '../../db/schema.ts';
import { inTransaction, type StepLog, type UnitOfWork } from '../../db/unit-of-work.ts';
import { accountInvitationMail } from '../../mail/templates.ts';
import { changedFields } from '../audit/audit.model.ts';
import { writeAudit } from '../audit/audit.repository.ts';
import { requireWithinCreationLimit } from '../audit/creation-limit.service.ts';
import { plannedAssignments, requireInheritanceWithinReach } from './assignments.service.ts';
import { loadAssignments } from './users-read.repository.ts';
import type { SeenUser } from './users-read.service.ts';
import { applyAssignments, emailInUse, insertUser, setAuthId } from './users-write.repository.ts';
import { emailTaken, mapWriteError } from './users.errors.ts';
import { newUserComplete, newUserFromWizard, type CreateUserBody, type CreateUserCompleteBody, type NewUserCommand } from './users.input.ts';
import { accountOf, describeAssignments, diffAssignments, personalFields, userAuditEntry } from './users.model.ts';
import { requireCanCreateUsers } from './users.policy.ts';
import type { ServiceDeps as UsersDeps } from '../services.ts';

/**
 * Last in the unit of work of a creation: the user's sign-in account at the identity directory (undone if the
 * unit of work fails: a remote directory cannot roll back with the database), then the e-mail inviting them
 * to sign in the first time. Answers the user with their subject, and the e-mail's outbox id.
 */
export async function openAccountAndInvite(deps: UsersDeps, uow: UnitOfWork, inserted: UserRow): Promise<{ user: UserRow; outboxId: number }> {
  const { db, directory } = deps;
  const account = await directory.createAccount(uow.trx, accountOf(inserted));
  // Never a reused account: it was nobody's before and stays.
  if (!account.reused && directory.kind !== 'local') uow.onRollback({ what: 'deleteAccount', run: () => directory.deleteAccount(db, account.subject) });
  return sendAccountSetupLink(deps, uow, inserted, account.subject);
}

/**
 * The e-mail with a set-up link for the account `subject` (queued in the unit of work), and its time recorded on
 * the user (invitation_sent_at): the links sent to them before no longer work (server/dev-idp/account-setup.ts).
 */
export async function sendAccountSetupLink(deps: UsersDeps, uow: UnitOfWork, target: UserRow, subject: string): Promise<{ user: UserRow; outboxId: number }> {
  const sentAt = new Date();
  const user = await setAuthId(uow.trx, target.id, subject, sentAt);
  const setupUrl = deps.accountSetupUrl(subject, user.email, sentAt);
  const outboxId = await deps.outbox.enqueue(uow, accountInvitationMail({ email: user.email, firstName: user.first_name, lastName: user.last_name, setupUrl }));
  return { user, outboxId };
}

export function usersCreateService(deps: UsersDeps) {
  const { db } = deps;

  /** The answer holds all of the new user's assignments. */
  async function create(actor: Actor, { fields, roles }: NewUserCommand, log: StepLog): Promise<SeenUser> {
    try {
      return await inTransaction(
        db,
        async (uow) => {
          const { trx } = uow;
          await requireWithinCreationLimit(trx, actor, 'user', deps.creationLimits);
          const planned = await plannedAssignments(trx, actor, roles, []);
          await requireInheritanceWithinReach(trx, actor, [...new Set(planned.filter((a) => a.inheritsToChildren).map((a) => a.organizationId))]);
          if (await emailInUse(trx, fields.email)) throw emailTaken();
          const inserted = await insertUser(trx, fields);
          await applyAssignments(trx, inserted.id, diffAssignments([], planned));
          const assignments = await loadAssignments(trx, [inserted.id]);
          const changes = changedFields({}, { ...personalFields(inserted), isActive: true, assignments: describeAssignments(assignments) });
          await writeAudit(trx, { ...userAuditEntry(actor, inserted, [], assignments), action: 'user.create', changes });
          const { user } = await openAccountAndInvite(deps, uow, inserted);
          return { user, assignments };
        },
        log,
      );
    } catch (error) {
      throw mapWriteError(error);
    }
  }

  return {
    /** createUser: the wizard's body. */
    async createFromWizard(actor: Actor, body: CreateUserBody, log: StepLog = deps.log): Promise<SeenUser> {
      requireCanCreateUsers(actor);
      return create(actor, newUserFromWizard(body), log);
    },

    /** createUserComplete. */
    async createComplete(actor: Actor, body: CreateUserCompleteBody, log: StepLog = deps.log): Promise<SeenUser> {
      requireCanCreateUsers(actor);
      return create(actor, newUserComplete(body), log);
    },
  };
}
