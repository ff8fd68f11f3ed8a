import { hasPermission, isBackOffice, type SessionUser } from '../../rules/permissions';

/** What the list needs of a target user to decide the row actions (spec §4, §6). */
export interface TargetUser {
  id: string;
  isActive: boolean;
  roles: readonly string[];
  organizations: readonly { role: { code: string; type?: 'INTERNAL' | 'EXTERNAL' } }[];
}

const ADMIN_ROLE_CODES = new Set(['ADMIN_ADHERENT', 'ORG_ADMIN', 'ADMIN_OPCO']);

/** Holds ADMIN_ADHERENT or ADMIN_OPCO. */
export function holdsAdminRole(target: TargetUser): boolean {
  return target.roles.some((code) => ADMIN_ROLE_CODES.has(code)) || target.organizations.some((o) => ADMIN_ROLE_CODES.has(o.role.code));
}

export function holdsInternalRole(target: TargetUser): boolean {
  return holdsAdminRole(target) || target.organizations.some((o) => o.role.type === 'INTERNAL');
}

/** Deactivation (and reactivation) is refused for oneself and, for non-back-office users, for holders of an admin role. */
export function canChangeActivation(actor: SessionUser & { id: string }, target: TargetUser): boolean {
  if (actor.id === target.id) return false;
  return isBackOffice(actor) || !holdsAdminRole(target);
}

/** Editing is greyed for non-back-office users when the target holds an admin or internal role, and for oneself. */
export function canEditUser(actor: SessionUser & { id: string }, target: TargetUser): boolean {
  if (actor.id === target.id) return false;
  return isBackOffice(actor) || !holdsInternalRole(target);
}

/** Permanent delete: back-office users holding USER_DELETE and B2C_USER_DISABLE. */
export function canDeletePermanently(actor: SessionUser & { id: string }, target: TargetUser): boolean {
  return actor.id !== target.id && isBackOffice(actor) && hasPermission(actor, ['USER_DELETE', 'B2C_USER_DISABLE'], 'all');
}
