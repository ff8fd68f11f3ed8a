// Permission and role rules of spec §6. Pure: shared by the SPA and the server.

export type UserType = 'BACKOFFICE' | 'ORGANIZATION';

export interface SessionRole {
  code: string;
  name: string;
  type?: 'INTERNAL' | 'EXTERNAL';
  permissions?: { code: string }[];
}

export interface SessionOrganization {
  id: string;
  code: string;
  name?: string;
  type: 'SIREN' | 'SIRET';
  role: SessionRole;
}

export interface SessionUser {
  isActive: boolean;
  userType: UserType;
  email: string;
  permissions?: { code: string }[];
  organizations?: SessionOrganization[];
}

export type PermissionMode = 'any' | 'all';

/** Pseudo-roles of spec §6, checked by kind of user rather than by a held role. */
export const PSEUDO_ROLES = {
  backOffice: 'ADMIN_OPCO',
  memberAdmin: 'ADMIN_ADHERENT',
  anyUser: 'UTILISATEUR',
} as const;

/** Organization role codes that make their holder a member administrator. */
const MEMBER_ADMIN_ROLE_CODES: ReadonlySet<string> = new Set(['ORG_ADMIN', 'ADMIN_ADHERENT']);

export function isBackOffice(user: SessionUser): boolean {
  return user.userType === 'BACKOFFICE';
}

export function permissionsOf(user: SessionUser): Set<string> {
  const codes = new Set<string>();
  for (const permission of user.permissions ?? []) codes.add(permission.code);
  if (!isBackOffice(user)) {
    for (const organization of user.organizations ?? []) {
      for (const permission of organization.role.permissions ?? []) codes.add(permission.code);
    }
  }
  return codes;
}

/** `codes` may be one code or a list; an empty list asks for nothing and is granted. */
export function hasPermission(
  user: SessionUser,
  codes: string | readonly string[],
  mode: PermissionMode = 'any',
): boolean {
  const wanted = typeof codes === 'string' ? [codes] : codes;
  if (wanted.length === 0) return true;
  const held = permissionsOf(user);
  return mode === 'all' ? wanted.every((code) => held.has(code)) : wanted.some((code) => held.has(code));
}

function heldRoles(user: SessionUser): SessionRole[] {
  return (user.organizations ?? []).map((organization) => organization.role);
}

function holdsRole(user: SessionUser, role: string): boolean {
  switch (role) {
    case PSEUDO_ROLES.backOffice:
      return isBackOffice(user);
    case PSEUDO_ROLES.memberAdmin:
      return !isBackOffice(user) && heldRoles(user).some((held) => MEMBER_ADMIN_ROLE_CODES.has(held.code));
    case PSEUDO_ROLES.anyUser:
      return true;
    default:
      return heldRoles(user).some((held) => held.code === role || held.name === role);
  }
}

/** True when the user holds at least one of `roles` (pseudo-roles included). */
export function hasAnyRole(user: SessionUser, roles: readonly string[]): boolean {
  return roles.some((role) => holdsRole(user, role));
}

export function canActOnOrganization(user: SessionUser, organizationId: string): boolean {
  return isBackOffice(user) || (user.organizations ?? []).some((organization) => organization.id === organizationId);
}
