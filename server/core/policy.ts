import { forbidden, notFound } from './errors.ts';
import type { Actor, OrganizationReach } from './actor.ts';

/**
 * Every authorization decision of the API (spec §4, §6), in one place. Routes ask; they never
 * decide inline. A refusal for a resource outside the actor's scope answers 404, exactly as a
 * missing one, so that ids cannot be probed.
 */
export type { Actor } from './actor.ts';

/** Role codes whose holders organization users may not edit, deactivate or delete (spec §6). */
export const PROTECTED_ROLE_CODES: ReadonlySet<string> = new Set(['ADMIN_ADHERENT', 'ORG_ADMIN', 'ADMIN_OPCO']);

export const MESSAGES = {
  inactive: 'Votre compte est désactivé.',
  missingPermission: (codes: readonly string[]) => `Permission requise : ${codes.join(' ou ')}.`,
  backOfficeOnly: 'Réservé au back-office.',
  self: 'Vous ne pouvez pas modifier votre propre profil',
  protectedTarget: 'Vous ne pouvez pas modifier cet utilisateur',
} as const;

/** An inactive account may read its own profile only (GET /users/me, not through this check). */
export function requireActive(actor: Actor): void {
  if (!actor.isActive) throw forbidden(MESSAGES.inactive);
}

export function hasPermission(actor: Actor, codes: string | readonly string[], mode: 'any' | 'all' = 'any'): boolean {
  const list = typeof codes === 'string' ? [codes] : codes;
  return mode === 'all' ? list.every((c) => actor.permissions.has(c)) : list.some((c) => actor.permissions.has(c));
}

export function requirePermission(actor: Actor, codes: string | readonly string[], mode: 'any' | 'all' = 'any'): void {
  if (!hasPermission(actor, codes, mode)) throw forbidden(MESSAGES.missingPermission(typeof codes === 'string' ? [codes] : codes));
}

export function requireBackOffice(actor: Actor): void {
  if (!actor.isBackOffice) throw forbidden(MESSAGES.backOfficeOnly);
}

/** Whether an organization is within the actor's reach (back-office: all). */
export function coversOrganization(actor: Actor, organizationId: string): boolean {
  return actor.scope === null || actor.scope.has(organizationId);
}

const NO_REACH: OrganizationReach = { organizationIds: new Set(), parentIds: new Set() };

/** Where the actor holds this permission (a role giving it, held there or inherited from its SIREN); null: everywhere (back-office). */
export function reachFor(actor: Actor, permission: string): OrganizationReach | null {
  if (actor.permissionScopes === null) return null;
  return actor.permissionScopes.get(permission) ?? NO_REACH;
}

/** Whether the actor holds this permission on this organization (back-office: on all). */
export function coversOrganizationWith(actor: Actor, permission: string, organizationId: string): boolean {
  const reach = reachFor(actor, permission);
  return reach === null || reach.organizationIds.has(organizationId);
}

/** 404 for an organization where the actor does not hold the permission, as for a missing one. */
export function requireOrganizationInScope(actor: Actor, organizationId: string, what: string, permission: string): void {
  if (!coversOrganizationWith(actor, permission, organizationId)) throw notFound(what);
}

/** A user is visible to an organization user when one of the user's organizations is in the actor's scope. */
export function canSeeUser(actor: Actor, targetOrganizationIds: readonly string[]): boolean {
  return actor.scope === null || targetOrganizationIds.some((id) => actor.scope!.has(id));
}

export interface ManagedUser {
  id: string;
  /** Codes and types of the roles the user holds anywhere. */
  roles: readonly { code: string; type: 'INTERNAL' | 'EXTERNAL' }[];
}

/**
 * May the actor change this user (edit, roles, deactivate, reactivate)? Nobody changes themselves
 * through the API; organization users never change a holder of ADMIN_ADHERENT, ADMIN_OPCO or any INTERNAL role.
 */
export function requireCanManageUser(actor: Actor, target: ManagedUser): void {
  if (target.id === actor.userId) throw forbidden(MESSAGES.self);
  if (!actor.isBackOffice && target.roles.some((r) => r.type === 'INTERNAL' || PROTECTED_ROLE_CODES.has(r.code))) {
    throw forbidden(MESSAGES.protectedTarget);
  }
}

/** Roles an actor may see or give: organization users never see INTERNAL roles (except ADMIN_ADHERENT when requesting an administrator). */
export function canSeeRole(actor: Actor, role: { code: string; type: 'INTERNAL' | 'EXTERNAL' }, purpose: 'assign' | 'requestAdministrator' = 'assign'): boolean {
  if (actor.isBackOffice || role.type === 'EXTERNAL') return true;
  return purpose === 'requestAdministrator' && role.code === 'ADMIN_ADHERENT';
}
