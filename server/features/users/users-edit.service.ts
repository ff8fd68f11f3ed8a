// Changing an existing user (the updates, roles, deactivate, reactivate, permanent delete), and the edit
// page's view of one. Each change is one transaction on the user's locked row; the identity provider last.
import type { Kysely, Transaction } from 'kysely';
import type { IdentityDirectory } from '../../identity/directory.ts';
import type { Actor } from '../../core/actor.ts';
import { assignableRoles, fullDetailsView, replaceableAssignment, requireCanChangeAccount, requireCanChangeUser } from './users.policy.ts';
import { changedFields, writeAudit } from '../audit/audit.repository.ts';
import { loadRoles } from '../roles/roles.repository.ts';
import type { Database } from '../../db/schema.ts';
import { checkRoleCount } from './users.input.ts';
import { inheritanceGiven, requireInheritanceWithinReach, type PlannedAssignment } from './users-plans.ts';
import { loadAssignments, loadOrganizationsForEdit, ownPermissions, visibleUser, type AssignmentRecord, type VisibleUser } from './users-read.repository.ts';
import { personalFields, toUserFullDetails } from '../../api/users.presenter.ts';
import {
  accountOf,
  applyAssignments,
  deleteUserRows,
  describeAssignments,
  diffAssignments,
  emailInUse,
  emailTaken,
  isEmptyDiff,
  mapWriteError,
  staleVersion,
  updateUserRow,
  userAuditEntry,
  type NewUserFields,
} from './users-write.repository.ts';

const asPlanned = (a: AssignmentRecord): PlannedAssignment => ({ organizationId: a.organizationId, roleId: a.roleId, inheritsToChildren: a.inheritsToChildren });

/** The target of a change, locked for the transaction, after the visibility and target rules. */
async function changeableUser(trx: Transaction<Database>, actor: Actor, id: string): Promise<VisibleUser> {
  const target = await visibleUser(trx, actor, id, { forUpdate: true });
  requireCanChangeUser(actor, { id, roles: target.assignments.map((a) => ({ code: a.roleCode, type: a.roleType })) });
  return target;
}

export interface Edit {
  fields: Partial<NewUserFields> & { metadata?: string | null };
  isActive?: boolean;
  /** The new assignments of those the actor may replace; undefined: roles untouched. */
  assignments?: (trx: Transaction<Database>, current: PlannedAssignment[]) => Promise<PlannedAssignment[]>;
  rolesField?: string;
  /** The version the caller read (body `version` or If-Match): 409 when the user changed since. */
  expectedVersion?: number;
}

/** Where failures of the identity provider that leave no error to answer are written (the request's logger). */
export interface DirectoryLog {
  error(details: object, message: string): void;
}

/** Every edit of an existing user: version bumped once, one audit entry per kind of change. */
export async function editUser(db: Kysely<Database>, directory: IdentityDirectory, actor: Actor, id: string, change: Edit, log?: DirectoryLog): Promise<VisibleUser> {
  // What the identity provider changed, to put back if the commit fails (a remote one does not roll back with us).
  const undo: { what: string; run: () => Promise<void> }[] = [];
  try {
    return await db.transaction().execute(async (trx) => {
      const { scope, user, assignments } = await changeableUser(trx, actor, id);
      if (change.expectedVersion !== undefined && user.version !== change.expectedVersion) throw staleVersion();
      const replaceable = assignments.filter((a) => replaceableAssignment(actor, a));
      let desired: PlannedAssignment[] | null = null;
      if (change.assignments) {
        const kept = assignments.filter((a) => !replaceableAssignment(actor, a)).map(asPlanned);
        desired = await change.assignments(trx, replaceable.map(asPlanned));
        checkRoleCount(new Set([...kept, ...desired].map((a) => a.roleId)).size, change.rolesField ?? 'body');
      }
      const email = change.fields.email;
      if (email && email.toLowerCase() !== user.email.toLowerCase() && (await emailInUse(trx, email, id))) throw emailTaken();

      const fieldChanges = changedFields(personalFields(user), change.fields);
      const activeChanged = change.isActive !== undefined && change.isActive !== user.is_active;
      const diff = desired === null ? null : diffAssignments(replaceable, desired);
      const rolesChanged = diff !== null && !isEmptyDiff(diff);
      if (Object.keys(fieldChanges).length === 0 && !activeChanged && !rolesChanged) return { user, scope, assignments };
      // What is the person's across employers only when all of their assignments are within reach; roles within it always.
      if (Object.keys(fieldChanges).length > 0 || activeChanged) requireCanChangeAccount(actor, assignments);
      if (diff) await requireInheritanceWithinReach(trx, actor, inheritanceGiven(diff, replaceable));

      // The user's row first, conditioned on the version read: a concurrent change makes it touch no row.
      const f = change.fields;
      const columns = {
        first_name: f.firstName,
        last_name: f.lastName,
        email: f.email,
        job_title: f.jobTitle,
        phone_number: f.phoneNumber,
        mobile_phone: f.mobilePhone,
        street: f.street,
        postal_code: f.postalCode,
        city: f.city,
        metadata: f.metadata,
        is_active: change.isActive,
      };
      const updated = await updateUserRow(trx, id, columns, change.expectedVersion);
      if (!updated) throw staleVersion();
      if (rolesChanged) await applyAssignments(trx, id, diff);
      const entry = userAuditEntry(actor, id, assignments);
      if (Object.keys(fieldChanges).length) await writeAudit(trx, { ...entry, action: 'user.update', changes: fieldChanges });
      const after = rolesChanged ? await loadAssignments(trx, [id]) : assignments;
      if (rolesChanged) {
        await writeAudit(trx, { ...entry, action: 'user.roles', changes: { assignments: { before: describeAssignments(assignments), after: describeAssignments(after) } } });
      }
      if (activeChanged) {
        await writeAudit(trx, { ...entry, action: updated.is_active ? 'user.reactivate' : 'user.deactivate', changes: { isActive: { before: user.is_active, after: updated.is_active } } });
      }

      // The identity provider last, just before commit: the sign-in e-mail, name and status follow the user's.
      const subject = updated.auth_id;
      if (subject && ['email', 'firstName', 'lastName'].some((field) => field in fieldChanges)) {
        await directory.updateAccount(trx, subject, accountOf(updated));
        undo.push({ what: 'updateAccount', run: () => directory.updateAccount(db, subject, accountOf(user)) });
      }
      if (subject && activeChanged && updated.is_active) {
        await directory.enableAccount(trx, subject);
        undo.push({ what: 'disableAccount', run: () => directory.disableAccount(db, subject) });
      } else if (subject && activeChanged) {
        await directory.disableAccount(trx, subject);
        undo.push({ what: 'enableAccount', run: () => directory.enableAccount(db, subject) });
      }
      return { user: updated, scope, assignments: after };
    });
  } catch (error) {
    // A remote directory cannot roll back with us: put back what it changed, last change first.
    if (directory.kind !== 'local') {
      for (const step of undo.reverse()) {
        await step.run().catch((undoError: unknown) => log?.error({ err: undoError, userId: id, undo: step.what }, "le compte de connexion n'a pas pu être remis dans son état précédent"));
      }
    }
    throw mapWriteError(error);
  }
}

/**
 * Removes the user, their assignments and their identity account; audited with what they were. The
 * account is disabled in the transaction (enabled again if the commit fails and the user was active) and
 * deleted once the commit succeeded: a failure then is logged and leaves a disabled account, never a
 * deleted account with a live user.
 */
export async function deleteUserPermanently(db: Kysely<Database>, directory: IdentityDirectory, actor: Actor, id: string, log: DirectoryLog, expectedVersion?: number): Promise<void> {
  const account = { subject: null as string | null, wasActive: false };
  try {
    await db.transaction().execute(async (trx) => {
      const { user, assignments } = await changeableUser(trx, actor, id);
      if (expectedVersion !== undefined && user.version !== expectedVersion) throw staleVersion();
      requireCanChangeAccount(actor, assignments);
      await deleteUserRows(trx, user.id);
      await writeAudit(trx, {
        ...userAuditEntry(actor, user.id, assignments),
        action: 'user.delete',
        changes: {
          ...Object.fromEntries(Object.entries(personalFields(user)).map(([field, before]) => [field, { before, after: null }])),
          assignments: { before: describeAssignments(assignments), after: [] },
        },
      });
      if (user.auth_id) {
        await directory.disableAccount(trx, user.auth_id);
        account.subject = user.auth_id;
        account.wasActive = user.is_active;
      }
    });
  } catch (error) {
    const subject = account.subject;
    if (subject && account.wasActive && directory.kind !== 'local') {
      await directory.enableAccount(db, subject).catch((undoError: unknown) => log.error({ err: undoError, userId: id }, "le compte de connexion n'a pas pu être réactivé après l'échec de la suppression"));
    }
    throw mapWriteError(error);
  }
  if (account.subject) {
    try {
      await directory.deleteAccount(db, account.subject);
    } catch (error) {
      log.error({ err: error, userId: id }, 'utilisateur supprimé ; son compte de connexion, désactivé, reste à supprimer');
    }
  }
}

/** The edit page's view of a user (OpenAPI UserFullDetails), as fullDetailsView (policy) decides it. */
export async function fullDetails(db: Kysely<Database>, actor: Actor, { scope, user, assignments }: VisibleUser) {
  const view = fullDetailsView(actor, scope, { id: user.id, userType: user.user_type }, assignments);
  return toUserFullDetails({
    user,
    assignments: view.assignments,
    availableRoles: assignableRoles(actor, await loadRoles(db)),
    availableOrganizations: await loadOrganizationsForEdit(db, view.offeredOrganizations),
    permissions: view.permissions === 'own' ? await ownPermissions(db, user.id) : view.permissions,
  });
}
