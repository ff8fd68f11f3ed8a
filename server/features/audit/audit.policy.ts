import type { Actor, OrganizationReach } from '../../core/actor.ts';
import { notFound } from '../../core/errors.ts';
import { requirePermission } from '../../core/policy.ts';
import type { UserType } from '../../db/schema.ts';
import { canFilterByOrganization, coversAssignment, userScope, type ScopedAssignment } from '../users/users.policy.ts';
import { INPUT_MESSAGES } from '../users/users.input.ts';

/**
 * The journal ('Journal des modifications') needs USER_LIST, which guards the personal details its entries
 * carry. The back office reads every entry; anyone else the entries concerning an organization where they hold
 * USER_LIST (per organization: server/core/policy.ts reachFor), with `changes` left out and only the roles of
 * that scope in the details.
 */
export const AUDIT_PERMISSION = 'USER_LIST';

export function requireCanReadAudit(actor: Actor): void {
  requirePermission(actor, AUDIT_PERMISSION);
}

/** The organizations whose entries the actor reads; null: every entry (the back office). */
export function journalScope(actor: Actor): OrganizationReach | null {
  return userScope(actor, AUDIT_PERMISSION);
}

/** An organization filtered on must be one the actor sees, else 404 as for a missing one (as the users list does). */
export function requireJournalOrganization<T extends { id: string }>(scope: OrganizationReach | null, organization: T | null): T {
  if (!organization || !canFilterByOrganization(scope, organization.id)) throw notFound(INPUT_MESSAGES.unknownOrganization);
  return organization;
}

/** Whether the actor may open this user's profile from the journal (as GET /users/{id} decides). */
export function canOpenUser(actor: Actor, scope: OrganizationReach | null, user: { id: string; userType: UserType; assignments: readonly ScopedAssignment[] }): boolean {
  if (scope === null || user.id === actor.userId) return true;
  return user.userType !== 'BACKOFFICE' && user.assignments.some((a) => coversAssignment(scope, a));
}

/** Whether the actor may open a request: GET /invitations/{id} is the back office's. */
export const canOpenInvitation = (scope: OrganizationReach | null) => scope === null;
