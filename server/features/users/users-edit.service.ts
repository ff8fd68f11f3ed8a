// Changing an existing user (the updates, roles, deactivate, reactivate, permanent delete). Each change is
// one unit of work on the user's locked row; the identity provider last, put back if the commit fails.
import type { Transaction } from 'kysely';
import type { Actor } from '../../core/actor.ts';
import type { Database } from '../../db/schema.ts';
import { inTransaction, type StepLog } from '../../db/unit-of-work.ts';
import { changedFields } from '../audit/audit.model.ts';
import { writeAudit } from '../audit/audit.repository.ts';
import { plannedAssignments, requireInheritanceWithinReach } from './assignments.service.ts';
import { findUser, loadAssignments } from './users-read.repository.ts';
import { requestEmailChange } from './users-email.service.ts';
import { removePerson } from './users-erasure.service.ts';
import type { VisibleUser } from './users-read.service.ts';
import { applyAssignments, emailInUse, updateUserRow } from './users-write.repository.ts';
import { emailTaken, mapWriteError, staleVersion } from './users.errors.ts';
import { checkRoleCount, type UserChange } from './users.input.ts';
import { accountOf, asPlanned, type PersonStep, describeAssignments, diffAssignments, inheritanceGiven, isEmptyDiff, personalFields, reactivationColumns, statusChangeRecord, userAuditEntry, type PlannedAssignment } from './users.model.ts';
import { replaceableAssignment, requireCanChangeAccount, requireNoOrganizationRoleForBackOffice, requireChangeableUser, requireCanChangeUsers, requireCanHardDeleteUsers, requireStatusChange, userScope } from './users.policy.ts';
import type { ServiceDeps as UsersDeps } from '../services.ts';

/** The target of a change, locked for the transaction, after the visibility and target rules. */
export async function changeableUser(trx: Transaction<Database>, actor: Actor, id: string): Promise<VisibleUser> {
  const scope = userScope(actor, 'USER_CREATE');
  const found = await findUser(trx, id, { forUpdate: true });
  const assignments = found ? await loadAssignments(trx, [id]) : [];
  return { scope, user: requireChangeableUser(actor, scope, found, assignments), assignments };
}

export function usersEditService(deps: UsersDeps) {
  const { db, directory } = deps;
  /** A remote directory (Graph) does not roll back with the database: what it changed is undone by hand. */
  const isRemote = () => directory.kind !== 'local';

  /** Every edit of an existing user: version bumped once, one audit entry per kind of change. */
  async function edit(actor: Actor, id: string, change: UserChange, log: StepLog, step?: PersonStep): Promise<VisibleUser> {
    try {
      return await inTransaction(
        db,
        async (uow) => {
          const { trx } = uow;
          if (step) await step.claim(trx);
          const { scope, user, assignments } = await changeableUser(trx, actor, id);
          if (change.expectedVersion !== undefined && user.version !== change.expectedVersion) throw staleVersion();
          const replaceable = assignments.filter((a) => replaceableAssignment(actor, a));
          let desired: PlannedAssignment[] | null = null;
          if (change.roles) {
            const kept = assignments.filter((a) => !replaceableAssignment(actor, a)).map(asPlanned);
            desired = await plannedAssignments(trx, actor, change.roles, replaceable.map(asPlanned));
            requireNoOrganizationRoleForBackOffice(user, [...kept, ...desired], change.rolesField ?? 'body');
            checkRoleCount(new Set([...kept, ...desired].map((a) => a.roleId)).size, change.rolesField ?? 'body');
          }
          // A new address (more than its letter case) waits for its owner's confirmation (users-email.service.ts):
          // the e-mail and the sign-in identity stay; asking again for the pending address sends a new link.
          const requestedEmail = change.fields.email;
          const newEmail = requestedEmail && requestedEmail.toLowerCase() !== user.email.toLowerCase() ? requestedEmail : null;
          const f = newEmail ? { ...change.fields, email: undefined } : change.fields;

          const fieldChanges = changedFields(personalFields(user), f);
          const activeChanged = change.isActive !== undefined && change.isActive !== user.is_active;
          const diff = desired === null ? null : diffAssignments(replaceable, desired);
          const rolesChanged = diff !== null && !isEmptyDiff(diff);
          if (step?.refuseUnchanged && change.isActive !== undefined) requireStatusChange(user.is_active, change.isActive);
          if (Object.keys(fieldChanges).length === 0 && !newEmail && !activeChanged && !rolesChanged) return { user, scope, assignments };
          // What is the person's across employers only when all of their assignments are within reach; roles within it always.
          if (Object.keys(fieldChanges).length > 0 || newEmail || activeChanged) requireCanChangeAccount(actor, assignments);
          if (diff) await requireInheritanceWithinReach(trx, actor, inheritanceGiven(diff, replaceable));
          // Uniqueness only once the actor may make the change: a refused caller learns nothing of who has an account.
          const email = change.fields.email;
          if (email && email.toLowerCase() !== user.email.toLowerCase() && (await emailInUse(trx, email, id))) throw emailTaken();

          // The user's row first, conditioned on the version read: a concurrent change makes it touch no row.
          const columns = {
            first_name: f.firstName,
            last_name: f.lastName,
            email: f.email,
            pending_email: newEmail ?? undefined,
            job_title: f.jobTitle,
            phone_number: f.phoneNumber,
            mobile_phone: f.mobilePhone,
            street: f.street,
            postal_code: f.postalCode,
            city: f.city,
            metadata: f.metadata,
            is_active: change.isActive,
            ...(activeChanged && change.isActive ? reactivationColumns(deps.now()) : {}),
          };
          const updated = await updateUserRow(trx, id, columns, change.expectedVersion);
          if (!updated) throw staleVersion();
          if (rolesChanged) await applyAssignments(trx, id, diff);
          const after = rolesChanged ? await loadAssignments(trx, [id]) : assignments;
          const entry = userAuditEntry(actor, { ...updated, email: user.email }, assignments, after);
          if (Object.keys(fieldChanges).length) await writeAudit(trx, { ...entry, action: 'user.update', changes: fieldChanges });
          if (newEmail) await requestEmailChange(deps, uow, { actor, before: user, newEmail, assignments });
          if (rolesChanged) {
            await writeAudit(trx, { ...entry, action: 'user.roles', changes: { assignments: { before: describeAssignments(assignments), after: describeAssignments(after) } } });
          }
          if (activeChanged) {
            await writeAudit(trx, { ...entry, action: updated.is_active ? 'user.reactivate' : 'user.deactivate', changes: statusChangeRecord(user, updated.is_active) });
          }

          // The identity provider last, just before commit: the sign-in e-mail, name and status follow the user's.
          // A remote directory cannot roll back with us: what it changed is put back if the commit fails.
          const subject = updated.auth_id;
          const undoFailure = { message: "le compte de connexion n'a pas pu être remis dans son état précédent", details: { userId: id } };
          if (subject && ['email', 'firstName', 'lastName'].some((field) => field in fieldChanges)) {
            await directory.updateAccount(trx, subject, accountOf(updated));
            if (isRemote()) uow.onRollback({ what: 'updateAccount', run: () => directory.updateAccount(db, subject, accountOf(user)), failure: undoFailure });
          }
          if (subject && activeChanged && updated.is_active) {
            await directory.enableAccount(trx, subject);
            if (isRemote()) uow.onRollback({ what: 'disableAccount', run: () => directory.disableAccount(db, subject), failure: undoFailure });
          } else if (subject && activeChanged) {
            await directory.disableAccount(trx, subject);
            if (isRemote()) uow.onRollback({ what: 'enableAccount', run: () => directory.enableAccount(db, subject), failure: undoFailure });
            // A deactivated person's sessions end at the provider too (nothing to undo: they sign in again).
            await directory.revokeSessions(trx, subject);
          }
          // The pending address as reads show it: the one just asked for, else the one still waiting (not an expired one).
          return { user: { ...updated, pending_email: newEmail ?? user.pending_email }, scope, assignments: after };
        },
        log,
      );
    } catch (error) {
      throw mapWriteError(error);
    }
  }

  return {
    /**
     * Every change of an existing user, once the actor may change users and the body read (`change`, from
     * users.input.ts); against the version the body or If-Match (`ifMatch`) names.
     */
    async change(actor: Actor, id: string, read: () => UserChange, ifMatch?: number, log: StepLog = deps.log): Promise<VisibleUser> {
      requireCanChangeUsers(actor);
      const change = read();
      return edit(actor, id, { ...change, expectedVersion: change.expectedVersion ?? ifMatch }, log);
    },

    /** `step`: one person of an action on many users (users-bulk.service.ts). */
    async setActive(actor: Actor, id: string, isActive: boolean, ifMatch?: number, log: StepLog = deps.log, step?: PersonStep): Promise<VisibleUser> {
      requireCanChangeUsers(actor);
      return edit(actor, id, { fields: {}, isActive, expectedVersion: ifMatch }, log, step);
    },

    /**
     * Removes the user, their assignments and their identity account, audited, and erases their personal data
     * wherever else it was kept (users-erasure.service.ts removePerson): whole or not at all.
     */
    async deletePermanently(actor: Actor, id: string, expectedVersion?: number, log: StepLog = deps.log, step?: PersonStep): Promise<void> {
      requireCanHardDeleteUsers(actor);
      try {
        await inTransaction(
          db,
          async (uow) => {
            const { trx } = uow;
            if (step) await step.claim(trx);
            const { user, assignments } = await changeableUser(trx, actor, id);
            if (expectedVersion !== undefined && user.version !== expectedVersion) throw staleVersion();
            requireCanChangeAccount(actor, assignments);
            await removePerson(deps, uow, user, assignments, actor);
          },
          log,
        );
      } catch (error) {
        throw mapWriteError(error);
      }
    },
  };
}
