// Changing an existing user (the updates, roles, deactivate, reactivate, permanent delete), and the edit
// page's view of one. Each change is one transaction on the user's locked row; the identity provider last.
import type { Kysely, Transaction } from 'kysely';
import type { IdentityDirectory } from '../idp/directory.ts';
import type { Actor } from '../policy/actor.ts';
import { assignableRoles, replaceableAssignment, requireCanChangeUser, visibleAssignments } from '../policy/users.ts';
import { changedFields, writeAudit } from './audit.ts';
import { loadRoles } from './roles-repo.ts';
import type { Database } from './schema.ts';
import { checkRoleCount } from './users-input.ts';
import type { PlannedAssignment } from './users-plans.ts';
import { loadAssignments, loadOrganizationsForEdit, ownPermissions, visibleUser, type AssignmentRecord, type VisibleUser } from './users-read.ts';
import { personalFields, toUserFullDetails } from './users-shapes.ts';
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
} from './users-write.ts';

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
  expectedVersion?: number;
}

/** Every edit of an existing user: version bumped once, one audit entry per kind of change. */
export async function editUser(db: Kysely<Database>, directory: IdentityDirectory, actor: Actor, id: string, change: Edit): Promise<VisibleUser> {
  const undo = { account: null as (() => Promise<void>) | null };
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

      // The identity provider last, just before commit: the sign-in e-mail and name follow the user's.
      const subject = updated.auth_id;
      if (subject && ['email', 'firstName', 'lastName'].some((field) => field in fieldChanges)) {
        await directory.updateAccount(trx, subject, accountOf(updated));
        undo.account = () => directory.updateAccount(db, subject, accountOf(user));
      }
      if (subject && activeChanged) await (updated.is_active ? directory.enableAccount(trx, subject) : directory.disableAccount(trx, subject));
      return { user: updated, scope, assignments: after };
    });
  } catch (error) {
    // A remote directory cannot roll back with us: put back what it changed.
    if (undo.account && directory.kind !== 'local') await undo.account().catch(() => undefined);
    throw mapWriteError(error);
  }
}

/** Removes the user, their assignments and their identity account; audited with what they were. */
export async function deleteUserPermanently(db: Kysely<Database>, directory: IdentityDirectory, actor: Actor, id: string): Promise<void> {
  try {
    await db.transaction().execute(async (trx) => {
      const { user, assignments } = await changeableUser(trx, actor, id);
      await deleteUserRows(trx, user.id);
      await writeAudit(trx, {
        ...userAuditEntry(actor, user.id, assignments),
        action: 'user.delete',
        changes: {
          ...Object.fromEntries(Object.entries(personalFields(user)).map(([field, before]) => [field, { before, after: null }])),
          assignments: { before: describeAssignments(assignments), after: [] },
        },
      });
      if (user.auth_id) await directory.deleteAccount(trx, user.auth_id);
    });
  } catch (error) {
    throw mapWriteError(error);
  }
}

/** The edit page's view of a user (OpenAPI UserFullDetails): the assignments the actor sees, and what they may give. */
export async function fullDetails(db: Kysely<Database>, actor: Actor, { scope, user, assignments }: VisibleUser) {
  const sirenIds = [...new Set(assignments.map((a) => (a.organizationType === 'SIREN' ? a.organizationId : a.parentId)).filter((x): x is string => x !== null))];
  const availableOrganizations =
    scope === null
      ? await loadOrganizationsForEdit(db, { ids: sirenIds, withChildrenOf: sirenIds })
      : await loadOrganizationsForEdit(db, { ids: [...scope.organizationIds], withChildrenOf: [] });
  const permissions = user.user_type === 'BACKOFFICE' ? await ownPermissions(db, user.id) : assignments.flatMap((a) => a.rolePermissions);
  return toUserFullDetails({
    user,
    assignments: visibleAssignments(actor, scope, user.id, assignments),
    availableRoles: assignableRoles(actor, await loadRoles(db)),
    availableOrganizations,
    permissions,
  });
}
