// The answer shapes of openapi.yaml (User, UserDetail, UserFullDetails) from database records. Pure.
import type { AssignmentRecord, OrganizationRecord, RoleRecord, UserRow } from './users-read.ts';

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());
const byCode = (codes: Iterable<string>) => [...new Set(codes)].sort().map((code) => ({ code }));

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
      id: a.organizationId,
      code: a.organizationCode,
      name: a.organizationName,
      type: a.organizationType,
      parentCode: a.parentCode,
      inheritsToChildren: a.inheritsToChildren,
      role: { id: a.roleId, code: a.roleCode, name: a.roleName, type: a.roleType, permissions: a.rolePermissions.map((code) => ({ code })) },
    })),
    userType: user.user_type,
    version: user.version,
  };
}

/** OpenAPI UserDetailUser. */
export function toUserDetailUser(user: UserRow) {
  return {
    id: user.id,
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
    organizations: assignments.map((a) => ({
      id: a.organizationId,
      code: a.organizationCode,
      name: a.organizationName,
      type: a.organizationType,
      parentCode: a.parentCode,
      role: { id: a.roleId, code: a.roleCode, name: a.roleName, type: a.roleType },
    })),
  };
}

/** OpenAPI Role. */
export function toRole(role: RoleRecord) {
  return {
    id: role.id,
    code: role.code,
    name: role.name,
    nomRole: role.name,
    type: role.type,
    metadata: role.color ? { color: role.color } : null,
    permissions: role.permissions.map((code) => ({ code })),
  };
}

/** OpenAPI Organization. */
export function toOrganizationShape(organization: OrganizationRecord) {
  return {
    id: organization.id,
    code: organization.code,
    name: organization.name,
    type: organization.type,
    parentCode: organization.parentCode,
    parentId: organization.parentId,
  };
}

export interface FullDetailsInput {
  user: UserRow;
  /** The assignments the caller may see. */
  assignments: readonly AssignmentRecord[];
  availableRoles: readonly RoleRecord[];
  availableOrganizations: readonly OrganizationRecord[];
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
    availableRoles: input.availableRoles.map(toRole),
    availableOrganizations: input.availableOrganizations.map(toOrganizationShape),
    permissions: byCode(input.permissions),
  };
}
