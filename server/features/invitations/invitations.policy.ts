import type { InvitationType, UserType } from '../../db/schema.ts';
import { canMoveRequest, type RequestStatus } from '../../../rules/request-lifecycle.machine.ts';
import { conflict, forbidden, notFound } from '../../core/errors.ts';
import { moverOf } from './request-lifecycle.model.ts';
import { canSeeRole, hasPermission, reachFor, requireBackOffice, requireOrganizationInScope, requirePermission, type Actor } from '../../core/policy.ts';

/**
 * Who may do what with invitations (requests for administrator rights and role assignments).
 *
 * - List and read: back-office users only, whatever their permissions (lecteur@portail.test, USER_LIST
 *   only, 'sees invitations'). Organization users: 403 (spec §6: /admin and /admin/{id} are back-office only).
 * - Approve and reject: back-office users holding USER_CREATE (they create accounts and give roles), else 403.
 * - Create: USER_CREATE. Back-office users for any organization and any role but ADMIN_OPCO (the
 *   back office's own role is never given on an organization: 403 for everybody). Organization users
 *   only for an organization within their scope (404 otherwise, as for a missing one) and only the
 *   ADMIN_ADHERENT role (asking for an administrator) or an EXTERNAL role (403 for any other INTERNAL role).
 *   The organization is looked up within the actor's scope before anything is compared with it.
 * - What a creation reveals: an organization user's request is answered alike whatever accounts exist
 *   (an administrator request always needs the person's profile; a back-office invitee is refused at
 *   approval), so that it cannot tell which e-mails have an account, or a back-office one. The back
 *   office sees every account anyway: a back-office invitee is refused at once, a known one needs no profile.
 * - Never an organization role for a back-office account: 409, at creation (back office) and at approval.
 * - Cancel (issue 22): the person who made the request, or the back office holding USER_CREATE, while it is
 *   pending (the request-lifecycle machine, rules/request-lifecycle.machine.ts, decides the move). An
 *   organization user reaches only the requests they made: another's answers 404, as a missing one.
 * - Their own requests (GET /invitations/mine): anyone signed in, only the requests they made.
 */

export const INVITATION_MESSAGES = {
  decideNeedsUserCreate: 'Seul le back-office disposant de la permission USER_CREATE peut approuver ou rejeter une demande.',
  roleNotAllowed: (roleName: string) => `Vous ne pouvez pas demander le rôle « ${roleName} ».`,
  backOfficeRole: "Le rôle Admin OPCO est celui du back-office : il ne s'attribue pas sur une organisation.",
  backOfficeAccount: (email: string) => `« ${email} » est un compte du back-office : un rôle d'organisation ne peut pas lui être attribué.`,
  inviteeAccountChanged: "Le compte associé à cette adresse a changé depuis la demande : vérifiez la personne avant d'approuver.",
} as const;

export function requireCanListInvitations(actor: Actor): void {
  requireBackOffice(actor);
}

export function requireCanReadInvitation(actor: Actor): void {
  requireBackOffice(actor);
}

export function requireCanDecideInvitation(actor: Actor): void {
  requireBackOffice(actor);
  if (!actor.permissions.has('USER_CREATE')) throw forbidden(INVITATION_MESSAGES.decideNeedsUserCreate);
}

/** Before anything is looked up: the permission alone. */
export function requireCanCreateInvitations(actor: Actor): void {
  requirePermission(actor, 'USER_CREATE');
}

/** The invitation's organization: any for the back office, else one where the actor holds USER_CREATE (404 with `notFoundMessage` otherwise). */
export function requireCanInviteInto(actor: Actor, organizationId: string, notFoundMessage: string): void {
  requireCanCreateInvitations(actor);
  requireOrganizationInScope(actor, organizationId, notFoundMessage, 'USER_CREATE');
}

/** The invitation's role: any but ADMIN_OPCO for the back office; ADMIN_ADHERENT or an EXTERNAL role for organization users. */
export function requireCanRequestRole(actor: Actor, role: { code: string; name: string; type: 'INTERNAL' | 'EXTERNAL' }): void {
  requireCanCreateInvitations(actor);
  if (role.code === 'ADMIN_OPCO') throw forbidden(INVITATION_MESSAGES.backOfficeRole);
  if (!canSeeRole(actor, role, 'requestAdministrator')) throw forbidden(INVITATION_MESSAGES.roleNotAllowed(role.name));
}

/** Whether creating an invitation may depend on the invitee's accounts (see above): the back office's only. */
export function invitationCreationSeesAccounts(actor: Actor): boolean {
  return actor.isBackOffice;
}

/** An administrator request names the person an approval may create: their profile is needed, unless the back office knows they have an account. */
export function requiresInviteeProfile(actor: Actor, invitationType: InvitationType, inviteeHasAccount: boolean): boolean {
  return invitationType === 'NEW_ADMIN' && !(invitationCreationSeesAccounts(actor) && inviteeHasAccount);
}

/** 409 when the invitee's account is a back-office one: organization roles are never given to it. */
export function requireInviteeNotBackOffice(inviteeType: UserType | null | undefined, email: string): void {
  if (inviteeType === 'BACKOFFICE') throw conflict(INVITATION_MESSAGES.backOfficeAccount(email));
}

/** What the caller may do on a request (OpenAPI Invitation's allowedActions): the moves the request-lifecycle machine lets them make. */
export type InvitationAction = 'approve' | 'reject' | 'cancel';

const MOVES = [
  ['approve', 'request.approve'],
  ['reject', 'request.reject'],
  ['cancel', 'request.cancel'],
] as const;

/** `expired`: a pending request whose period has passed, not yet marked by the job: nothing can be done on it. */
export function allowedInvitationActions(actor: Actor, invitation: { status: RequestStatus; sender_user_id: string | null }, expired = false): InvitationAction[] {
  if (expired) return [];
  const by = moverOf(actor, invitation);
  return MOVES.filter(([, move]) => canMoveRequest(invitation.status, move, by)).map(([action]) => action);
}

/**
 * A request the actor may act on as its requester, or any for the back office: 404 otherwise, as for a missing one.
 * A requester acts on it only while they still hold USER_CREATE on its organization (`organizationId`, null: gone):
 * one whose role there was removed no longer reads or cancels it (security review).
 */
export function requireCanReachRequest(actor: Actor, invitation: { sender_user_id: string | null }, organizationId: string | null, notFoundMessage: string): void {
  if (actor.isBackOffice) return;
  if (invitation.sender_user_id === null || invitation.sender_user_id !== actor.userId) throw notFound(notFoundMessage);
  if (organizationId === null) throw notFound(notFoundMessage);
  requireOrganizationInScope(actor, organizationId, notFoundMessage, 'USER_CREATE');
}

/** Whether a requester is still in charge of a request on this organization (told of it, may cancel it): requireCanReachRequest's rule. */
export function requesterStillInCharge(actor: Actor, invitation: { sender_user_id: string | null }, organizationId: string | null): boolean {
  if (!actor.isActive || !hasPermission(actor, 'USER_CREATE')) return false;
  try {
    requireCanReachRequest(actor, invitation, organizationId, '');
    return true;
  } catch {
    return false;
  }
}

/** The organizations whose requests a requester still reads in 'Mes demandes' (USER_CREATE there); null: the back office, all. */
export function requesterReach(actor: Actor): readonly string[] | null {
  const reach = reachFor(actor, 'USER_CREATE');
  return reach === null ? null : [...reach.organizationIds];
}

/**
 * 409 when the account holding the invitee's address at approval is not the one that held it when the request
 * was made (null: none): an account renamed to the address, or the holder renamed away or deleted. The role
 * goes to the person the requester meant, or to a new account, never to whoever holds the address by then.
 */
export function requireSameInviteeAccount(recorded: string | null, current: string | null): void {
  if (recorded !== current) throw conflict(INVITATION_MESSAGES.inviteeAccountChanged);
}
