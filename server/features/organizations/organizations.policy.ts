import type { OrganizationDto, OrganizationVisibility } from './organizations.repository.ts';
import { notFound } from '../../core/errors.ts';
import type { Actor } from '../../core/actor.ts';
import { requirePermission } from '../../core/policy.ts';

/**
 * Who sees which organizations (spec §6).
 *
 * - Back-office users see every organization ('sees all SIRENs'), whatever their permission list.
 * - Organization users see their scope (held SIRENs and SIRETs, the SIRETs of a SIREN held with
 *   inheritsToChildren) plus the parent SIREN of each SIRET they hold, so that a screen can name the
 *   company of an establishment. The parent is visible, not managed: it is not added to the scope.
 * - Anything else answers 404, exactly as a missing organization, by id and by code.
 */
export const ORGANIZATION_NOT_FOUND = 'Organisation introuvable.';

/**
 * Listing (searching) organizations is a feature of three screens, each gated by its permission:
 * the SIREN search of the edit page (ORG_LIST), the SIREN filter of the users list (USER_LIST) and
 * the SIREN step of the creation wizard (USER_CREATE). An organization user holding none of them has no
 * screen that searches organizations, so the list answers 403; reading one visible organization by id
 * or code stays open to every signed-in user, for display.
 */
export const ORGANIZATION_SEARCH_PERMISSIONS = ['ORG_LIST', 'USER_LIST', 'USER_CREATE'] as const;


/** The organizations the actor sees: all (back office), else the scope and the parent SIREN of each SIRET in it. */
export function organizationVisibility(actor: Actor): OrganizationVisibility {
  if (actor.isBackOffice || actor.scope === null) return { kind: 'all' };
  return { kind: 'scope', organizationIds: [...new Set([...actor.scope, ...(actor.parentIds ?? [])])] };
}

export function requireCanListOrganizations(actor: Actor): void {
  if (actor.isBackOffice) return;
  requirePermission(actor, ORGANIZATION_SEARCH_PERMISSIONS);
}

/** The organization a lookup found within the actor's visibility, or 404 (missing and out of reach alike). */
export function requireVisibleOrganization<T>(found: T | null | undefined): T {
  if (found === null || found === undefined) throw notFound(ORGANIZATION_NOT_FOUND);
  return found;
}

/**
 * Why no new role may be given in this organization, or null (issue 17): a SIRET closed in Sirene, or a SIREN
 * (and its SIRETs) that left the OPCO's members. Roles already held there stay.
 */
export function newAccessRefusal(organization: Pick<OrganizationDto, 'code' | 'type' | 'member' | 'closed'>): string | null {
  if (organization.closed) return `L'établissement ${organization.code} est fermé : il ne peut pas recevoir de nouveau rôle.`;
  if (!organization.member) return `L'organisation ${organization.code} n'est plus adhérente : elle ne peut pas recevoir de nouveau rôle.`;
  return null;
}
