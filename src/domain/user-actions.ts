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

/** An action on a user's row, as the server's allowedActions names it (OpenAPI UserActions). */
export type UserAction = 'edit' | 'deactivate' | 'reactivate' | 'delete' | 'resendInvitation';

/**
 * Which words explain an action the server left out of allowedActions (the right itself is never decided
 * here): oneself, or an administrator for a non-back-office caller, keep the spec's 'Vous ne pouvez pas
 * modifier cet utilisateur' and 'Impossible de désactiver'; anything else is a right the caller lacks.
 */
export function refusalKind(actor: SessionUser & { id: string }, target: TargetUser): 'protected' | 'noRight' {
  return actor.id === target.id || (!isBackOffice(actor) && holdsAdminRole(target)) ? 'protected' : 'noRight';
}

/** An action on a selection of the users list (issue 22). */
export type BulkActionName = 'deactivate' | 'reactivate' | 'resendInvitation' | 'delete';

/**
 * The actions the selection's toolbar offers, from the caller's permissions (the server decides each person,
 * and the whole request, anyway): changing users needs USER_CREATE; a permanent delete, the back office
 * holding USER_DELETE and B2C_USER_DISABLE (spec §2, §6).
 */
export function bulkActionsOffered(actor: SessionUser): BulkActionName[] {
  const offered: BulkActionName[] = hasPermission(actor, 'USER_CREATE') ? ['deactivate', 'reactivate', 'resendInvitation'] : [];
  return isBackOffice(actor) && hasPermission(actor, ['USER_DELETE', 'B2C_USER_DISABLE'], 'all') ? [...offered, 'delete'] : offered;
}
