// The answer shapes of openapi.yaml (User, UserDetail, UserFullDetails) from what the users services answer. Pure.
import { toRoleDto } from '../features/roles/roles.model.ts';
import type { AssignmentRecord, UserRow } from '../features/users/users-read.repository.ts';
import type { FullDetails } from '../features/users/users-read.service.ts';
import { personalFields } from '../features/users/users.model.ts';
import type { UserAction } from '../features/users/users.policy.ts';

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());
/** While the user has never signed in, when their latest set-up link was sent (OpenAPI invitationSentAt). */
const invitationSentAt = (user: UserRow): string | null => (user.last_login_at === null ? iso(user.invitation_sent_at) : null);
const byCode = (codes: Iterable<string>) => [...new Set(codes)].sort().map((code) => ({ code }));

/** The organization of an assignment, and its role (OpenAPI UserOrganization, UserDetailOrganization). */
const organizationOf = (a: AssignmentRecord) => ({ id: a.organizationId, code: a.organizationCode, name: a.organizationName, type: a.organizationType, parentCode: a.parentCode });
const roleOf = (a: AssignmentRecord) => ({ id: a.roleId, code: a.roleCode, name: a.roleName, type: a.roleType });

/** OpenAPI User: a user as listed. */
export function toUser(user: UserRow, assignments: readonly AssignmentRecord[], allowedActions: readonly UserAction[]) {
  return {
    id: user.id,
    authId: user.auth_id,
    firstName: user.first_name,
    lastName: user.last_name,
    email: user.email,
    lastLoginAt: iso(user.last_login_at),
    roles: [...new Set(assignments.map((a) => a.roleCode))],
    jobTitle: user.job_title,
    phoneNumber: user.phone_number,
    isActive: user.is_active,
    organizations: assignments.map((a) => ({
      ...organizationOf(a),
      inheritsToChildren: a.inheritsToChildren,
      role: { ...roleOf(a), permissions: a.rolePermissions.map((code) => ({ code })) },
    })),
    userType: user.user_type,
    version: user.version,
    invitationSentAt: invitationSentAt(user),
    allowedActions: [...allowedActions],
  };
}

/** OpenAPI UserDetailUser. */
export function toUserDetailUser(user: UserRow) {
  return {
    id: user.id,
    ...personalFields(user),
    pendingEmail: user.pending_email,
    isActive: user.is_active,
    userType: user.user_type,
    lastLoginAt: iso(user.last_login_at),
    version: user.version,
    invitationSentAt: invitationSentAt(user),
  };
}

/** OpenAPI UserDetail. */
export function toUserDetail(user: UserRow, assignments: readonly AssignmentRecord[], allowedActions: readonly UserAction[]) {
  return {
    user: toUserDetailUser(user),
    organizations: assignments.map((a) => ({ ...organizationOf(a), role: roleOf(a) })),
    allowedActions: [...allowedActions],
  };
}

/** OpenAPI UserFullDetails. */
export function toUserFullDetails(input: FullDetails) {
  return {
    user: toUserDetailUser(input.user),
    assignments: input.assignments.map((a) => ({
      id: a.id,
      organizationId: a.organizationId,
      organizationCode: a.organizationCode,
      organizationName: a.organizationName,
      organizationType: a.organizationType,
      roleId: a.roleId,
      roleCode: a.roleCode,
      roleName: a.roleName,
      roleType: a.roleType,
      inheritsToChildren: a.inheritsToChildren,
      parentOrganization: (a.parentId && input.parents.get(a.parentId)) || null,
    })),
    availableRoles: input.availableRoles.map(toRoleDto),
    availableOrganizations: [...input.availableOrganizations],
    permissions: byCode(input.permissions),
    allowedActions: [...input.allowedActions],
  };
}
