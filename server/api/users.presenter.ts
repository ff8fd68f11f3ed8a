// The answer shapes of openapi.yaml (User, UserDetail, UserFullDetails) from database records. Pure.
import type { OrganizationDto } from '../features/organizations/organizations.repository.ts';
import { toRoleDto, type RoleRecord } from '../features/roles/roles.repository.ts';
import type { AssignmentRecord, UserRow } from '../features/users/users-read.repository.ts';

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());
const byCode = (codes: Iterable<string>) => [...new Set(codes)].sort().map((code) => ({ code }));

/** A user's personal fields under their API names: in UserDetailUser, and what the audit records of a user. */
export function personalFields(user: UserRow) {
  return {
    firstName: user.first_name,
    lastName: user.last_name,
    email: user.email,
    jobTitle: user.job_title,
    phoneNumber: user.phone_number,
    mobilePhone: user.mobile_phone,
    street: user.street,
    postalCode: user.postal_code,
    city: user.city,
    metadata: user.metadata,
  };
}

/** The organization of an assignment, and its role (OpenAPI UserOrganization, UserDetailOrganization). */
const organizationOf = (a: AssignmentRecord) => ({ id: a.organizationId, code: a.organizationCode, name: a.organizationName, type: a.organizationType, parentCode: a.parentCode });
const roleOf = (a: AssignmentRecord) => ({ id: a.roleId, code: a.roleCode, name: a.roleName, type: a.roleType });

/** OpenAPI User: a user as listed. */
export function toUser(user: UserRow, assignments: readonly AssignmentRecord[]) {
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
  };
}

/** OpenAPI UserDetailUser. */
export function toUserDetailUser(user: UserRow) {
  return {
    id: user.id,
    ...personalFields(user),
    isActive: user.is_active,
    userType: user.user_type,
    lastLoginAt: iso(user.last_login_at),
    version: user.version,
  };
}

/** OpenAPI UserDetail. */
export function toUserDetail(user: UserRow, assignments: readonly AssignmentRecord[]) {
  return {
    user: toUserDetailUser(user),
    organizations: assignments.map((a) => ({ ...organizationOf(a), role: roleOf(a) })),
  };
}

export interface FullDetailsInput {
  user: UserRow;
  /** The assignments the caller may see. */
  assignments: readonly AssignmentRecord[];
  availableRoles: readonly RoleRecord[];
  availableOrganizations: readonly OrganizationDto[];
  /** The user's effective permissions: a back-office user's own list, else the union over all their roles. */
  permissions: Iterable<string>;
}

/** OpenAPI UserFullDetails. */
export function toUserFullDetails(input: FullDetailsInput) {
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
    })),
    availableRoles: input.availableRoles.map(toRoleDto),
    availableOrganizations: [...input.availableOrganizations],
    permissions: byCode(input.permissions),
  };
}
