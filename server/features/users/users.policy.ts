import { conflict, DomainError, forbidden, notFound, tooMany } from '../../core/errors.ts';
import type { Actor } from '../../core/actor.ts';
import type { UserScope } from './users.model.ts';
import type { UserType } from '../../db/schema.ts';
import { INVITATION_MESSAGES } from '../invitations/invitations.policy.ts';
import { canSeeRole, coversOrganizationWith, hasPermission, reachFor, MESSAGES, requireBackOffice, requireCanManageUser, requirePermission, type ManagedUser } from '../../core/policy.ts';

/**
 * Decisions about users (spec §6), on top of the generic ones of ./index.ts.
 *
 * - Reading another user, or listing users: USER_LIST. Everyone reads themselves.
 * - Creating users: USER_CREATE. Changing users (details, roles, deactivate, reactivate): USER_CREATE
 *   too, so that a read-only back-office user (USER_LIST only) changes nobody.
 * - Permanent delete: back-office holding USER_DELETE and B2C_USER_DISABLE.
 * - Organization users act only on the users of their scope: a user holding a role on an organization
 *   of the scope, or on the parent SIREN of one with inheritsToChildren. Anyone else answers 404, as a
 *   missing user does; organizations outside the scope in a body are refused as unknown ones.
 * - A person may work for several member companies. What is theirs across companies (active or not,
 *   e-mail, names, details, the account itself) an organization user changes only when every one of the
 *   person's assignments lies within the actor's scope; otherwise only the roles within it (403 for the rest).
 * - inheritsToChildren on a SIREN reaches all of its SIRETs: an organization user gives it only when their
 *   scope holds every one of them (403 otherwise). Keeping an inheritance the user has already is no gift.
 */

export const USER_NOT_FOUND = 'Utilisateur introuvable.';
export const INTERNAL_ROLE_REFUSED = 'Vous ne pouvez pas attribuer un rôle interne.';
/** The invitations' words: '« email » est un compte du back-office : un rôle d'organisation ne peut pas lui être attribué.' */
export const BACK_OFFICE_ACCOUNT = INVITATION_MESSAGES.backOfficeAccount;
export const INHERITANCE_REFUSED = 'Vous ne pouvez pas étendre un rôle à tous les établissements de ce SIREN.';
export const ALREADY_INACTIVE = 'Ce compte est déjà désactivé.';
export const ALREADY_ACTIVE = 'Ce compte est déjà actif.';
export const ALREADY_SIGNED_IN = "Ce compte a déjà été activé : la personne s'est déjà connectée.";
export const INACTIVE_NO_RESEND = "Ce compte est désactivé : réactivez-le avant de renvoyer l'invitation.";
/** Set-up links sent again to one person within an hour, at most (security review: no mailing an employee at will). */
export const RESENDS_PER_HOUR = 2;
export const TOO_MANY_RESENDS = "Un nouveau lien a déjà été envoyé deux fois à cette personne dans l'heure : réessayez plus tard.";

export type { UserScope } from './users.model.ts';

export interface ScopedAssignment {
  organizationId: string;
  inheritsToChildren: boolean;
}

/**
 * The permission a user decision needs on an organization: USER_LIST to list and read, USER_CREATE to create,
 * give roles and change. Evaluated per organization acted on, never on the union of the actor's roles.
 */
export type UserPermission = 'USER_LIST' | 'USER_CREATE';

/** The actor's reach for a user decision needing this permission, from what loadActor read (no statement). Null: global. */
export function userScope(actor: Actor, permission: UserPermission): UserScope | null {
  return reachFor(actor, permission);
}

/**
 * The organizations whose pending requests the actor may learn of in a users list (hasPendingInvitation):
 * every one for the back office (null); else those of their scope, where they may make a request
 * themselves (not the parent SIRENs they only see).
 */
export function pendingRequestReach(scope: UserScope | null): ReadonlySet<string> | null {
  return scope === null ? null : scope.organizationIds;
}

export function requireCanListUsers(actor: Actor): void {
  requirePermission(actor, 'USER_LIST');
}

/** Before looking the user up: a decision that does not depend on whether the user exists. */
export function requireCanReadUser(actor: Actor, targetId: string): void {
  if (targetId !== actor.userId) requirePermission(actor, 'USER_LIST');
}

/**
 * A person's data on request (issue 23): anyone active for themselves; for another person, the back office
 * allowed to read users' profiles (USER_LIST), whoever the person is. Organization users never (403, before
 * the person is looked up): their reach is a company's, the person's data spans every company.
 */
export function requireCanExportPersonalData(actor: Actor, targetId: string): void {
  if (targetId === actor.userId) return;
  requireBackOffice(actor);
  requirePermission(actor, 'USER_LIST');
}

/**
 * npm run admin:create makes the first back-office administrator of a database: refused while an active one
 * exists, unless the operator forces it (--force).
 */
export function requireFirstBackOfficeAdministrator(existing: readonly string[], force: boolean): void {
  if (existing.length > 0 && !force) {
    throw conflict(`Un administrateur du back-office existe déjà (${existing.join(', ')}). Pour en créer un autre, relancez la commande avec --force.`);
  }
}

export function requireCanCreateUsers(actor: Actor): void {
  requirePermission(actor, 'USER_CREATE');
}

/** Edit, roles, deactivate, reactivate. */
export function requireCanChangeUsers(actor: Actor): void {
  requirePermission(actor, 'USER_CREATE');
}

export function requireCanHardDeleteUsers(actor: Actor): void {
  requireBackOffice(actor);
  requirePermission(actor, ['USER_DELETE', 'B2C_USER_DISABLE'], 'all');
}

export function canHardDeleteUsers(actor: Actor): boolean {
  return actor.isBackOffice && hasPermission(actor, ['USER_DELETE', 'B2C_USER_DISABLE'], 'all');
}

/** Whether one of a user's assignments lies within the actor's reach (back-office: always). */
export function coversAssignment(scope: UserScope | null, assignment: ScopedAssignment): boolean {
  if (scope === null) return true;
  return scope.organizationIds.has(assignment.organizationId) || (assignment.inheritsToChildren && scope.parentIds.has(assignment.organizationId));
}

/** The assignments the actor may see of a user: all of them for back-office users and for oneself. */
export function visibleAssignments<A extends ScopedAssignment>(actor: Actor, scope: UserScope | null, targetId: string, assignments: readonly A[]): A[] {
  if (scope === null || targetId === actor.userId) return [...assignments];
  return assignments.filter((a) => coversAssignment(scope, a));
}

/**
 * 404 for a user outside the actor's reach, exactly as for a missing one. A back-office account is never
 * within an organization user's reach, whatever roles it holds (being back office is a user type, not a role).
 */
export function requireUserVisible<T extends { id: string; user_type: UserType }>(
  actor: Actor,
  scope: UserScope | null,
  target: T | null | undefined,
  assignments: readonly ScopedAssignment[],
): T {
  if (!target) throw notFound(USER_NOT_FOUND);
  if (scope === null || target.id === actor.userId) return target;
  if (target.user_type === 'BACKOFFICE') throw notFound(USER_NOT_FOUND);
  if (!assignments.some((a) => coversAssignment(scope, a))) throw notFound(USER_NOT_FOUND);
  return target;
}

/** Nobody changes themselves; organization users never change a holder of an INTERNAL or administrator role. */
export function requireCanChangeUser(actor: Actor, target: ManagedUser): void {
  requireCanManageUser(actor, target);
}

/**
 * The target of a change (edit, roles, status, delete): visible to the actor with the change's reach (404 otherwise,
 * as a missing one), then one they may change (requireCanChangeUser, from all of the target's roles).
 */
export function requireChangeableUser<T extends { id: string; user_type: UserType }>(
  actor: Actor,
  scope: UserScope | null,
  target: T | null | undefined,
  assignments: readonly (ScopedAssignment & { roleCode: string; roleType: 'INTERNAL' | 'EXTERNAL' })[],
): T {
  const user = requireUserVisible(actor, scope, target, assignments);
  requireCanChangeUser(actor, { id: user.id, roles: assignments.map((a) => ({ code: a.roleCode, type: a.roleType })) });
  return user;
}

/** An organization used as a filter must be one the actor reaches or the parent SIREN of one (as organizations show them). */
export function canFilterByOrganization(scope: UserScope | null, organizationId: string): boolean {
  return scope === null || scope.organizationIds.has(organizationId) || scope.parentIds.has(organizationId);
}

/** May the actor give roles in this organization? Outside the scope it is treated as unknown (400 naming the field). */
export function canAssignInOrganization(actor: Actor, organizationId: string): boolean {
  return coversOrganizationWith(actor, 'USER_CREATE', organizationId);
}

/**
 * Never an organization role for a back-office account, by any route (the invitations refuse it too):
 * 409 naming the field of the roles, when the change would leave the account holding any.
 */
export function requireNoOrganizationRoleForBackOffice(target: { email: string; user_type: UserType }, planned: readonly unknown[], field: string): void {
  if (target.user_type !== 'BACKOFFICE' || planned.length === 0) return;
  const message = BACK_OFFICE_ACCOUNT(target.email);
  throw new DomainError('conflict', message, [{ field, message }]);
}

/** Organization users never assign INTERNAL roles: 403. */
export function requireCanAssignRoles(actor: Actor, roles: readonly { code: string; type: 'INTERNAL' | 'EXTERNAL' }[]): void {
  if (roles.some((role) => !canSeeRole(actor, role, 'assign'))) throw forbidden(INTERNAL_ROLE_REFUSED);
}

/** The roles the actor may offer when editing a user: organization users never see INTERNAL roles. */
export function assignableRoles<R extends { code: string; type: 'INTERNAL' | 'EXTERNAL' }>(actor: Actor, roles: readonly R[]): R[] {
  return roles.filter((role) => canSeeRole(actor, role, 'assign'));
}

/**
 * Which of the user's assignments a replacement by this actor concerns: those on organizations of the
 * actor's scope. The others (another employer's, or a parent SIREN the actor does not manage) are kept.
 */
export function replaceableAssignment(actor: Actor, assignment: ScopedAssignment): boolean {
  return coversOrganizationWith(actor, 'USER_CREATE', assignment.organizationId);
}

/**
 * Before a change of what is the person's across companies (isActive, e-mail, names, details) or the
 * deletion of the account: every assignment of the user must be one the actor may replace. 403 otherwise.
 */
export function requireCanChangeAccount(actor: Actor, assignments: readonly ScopedAssignment[]): void {
  if (!assignments.every((a) => replaceableAssignment(actor, a))) throw forbidden(MESSAGES.protectedTarget);
}

/** Giving inheritsToChildren on this SIREN (not held so before): the actor's scope must hold the SIREN and every one of its SIRETs. */
export function requireCanGrantInheritance(actor: Actor, siren: { id: string; childIds: readonly string[] }): void {
  if (![siren.id, ...siren.childIds].every((id) => coversOrganizationWith(actor, 'USER_CREATE', id))) throw forbidden(INHERITANCE_REFUSED);
}

export interface DetailedAssignment extends ScopedAssignment {
  organizationType: 'SIREN' | 'SIRET';
  parentId: string | null;
  rolePermissions: readonly string[];
}

/**
 * The edit page's view of a user (getUserFullDetails): the assignments the actor sees; the organizations it
 * may offer (back office: the SIRENs of the user's organizations with all their SIRETs; organization users:
 * their scope); and the user's permissions as far as the actor sees them: a back-office user's own list
 * ('own'), else the union over the roles of the visible assignments only.
 */
export function fullDetailsView<A extends DetailedAssignment>(actor: Actor, scope: UserScope | null, target: { id: string; userType: 'BACKOFFICE' | 'ORGANIZATION' }, assignments: readonly A[]) {
  const visible = visibleAssignments(actor, scope, target.id, assignments);
  const sirenIds = [...new Set(visible.map((a) => (a.organizationType === 'SIREN' ? a.organizationId : a.parentId)).filter((id): id is string => id !== null))];
  return {
    assignments: visible,
    offeredOrganizations: scope === null ? { ids: sirenIds, withChildrenOf: sirenIds } : { ids: [...(userScope(actor, 'USER_CREATE')?.organizationIds ?? [])], withChildrenOf: [] },
    permissions: target.userType === 'BACKOFFICE' ? ('own' as const) : [...new Set(visible.flatMap((a) => a.rolePermissions))],
  };
}

/**
 * An action on many users refuses a deactivation of an inactive account, or a reactivation of an active one
 * (the single action answers it unchanged): 409, its message the report's reason.
 */
export function requireStatusChange(isActive: boolean, wanted: boolean): void {
  if (isActive === wanted) throw conflict(wanted ? ALREADY_ACTIVE : ALREADY_INACTIVE);
}

/**
 * A new set-up link (resendUserInvitation) goes only to an active user who has never signed in (409 otherwise);
 * who may send it is decided as for a deactivation (requireCanChangeUser, requireCanChangeAccount).
 */
export function requireCanResendInvitation(target: { is_active: boolean; last_login_at: Date | string | null }): void {
  if (target.last_login_at !== null) throw conflict(ALREADY_SIGNED_IN);
  if (!target.is_active) throw conflict(INACTIVE_NO_RESEND);
}

/** 429 once RESENDS_PER_HOUR links were sent again to this person in the last hour (by anyone, single or bulk). */
export function requireResendWithinLimit(resentInLastHour: number): void {
  if (resentInLastHour >= RESENDS_PER_HOUR) throw tooMany(TOO_MANY_RESENDS);
}

/** What the caller may do on a user's row (OpenAPI UserAction): told by the server, so that the SPA never guesses. */
export type UserAction = 'edit' | 'deactivate' | 'reactivate' | 'delete' | 'resendInvitation' | 'exportPersonalData';

/** Whether a decision lets the actor through (a refusal is a DomainError; anything else is a fault). */
function allows(decide: () => void): boolean {
  try {
    decide();
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}

/**
 * The actions the actor may take on this user, from the same decisions the changes ask (and in the same
 * order): edit (details or roles within reach), deactivate or reactivate (the account, as its state allows),
 * permanent delete, a new set-up link, a download of the person's data. `assignments` are all of the user's, not only those the actor sees.
 */
export function allowedUserActions(
  actor: Actor,
  target: { id: string; user_type: UserType; is_active: boolean; last_login_at: Date | string | null },
  assignments: readonly (ScopedAssignment & { roleCode: string; roleType: 'INTERNAL' | 'EXTERNAL' })[],
): UserAction[] {
  const exportable: UserAction[] = allows(() => requireCanExportPersonalData(actor, target.id)) ? ['exportPersonalData'] : [];
  const changeable = allows(() => {
    requireCanChangeUsers(actor);
    requireChangeableUser(actor, userScope(actor, 'USER_CREATE'), target, assignments);
  });
  if (!changeable) return exportable;
  const account = allows(() => requireCanChangeAccount(actor, assignments));
  const actions: UserAction[] = ['edit'];
  if (account) actions.push(target.is_active ? 'deactivate' : 'reactivate');
  if (account && allows(() => requireCanHardDeleteUsers(actor))) actions.push('delete');
  if (account && allows(() => requireCanResendInvitation(target))) actions.push('resendInvitation');
  return [...actions, ...exportable];
}
