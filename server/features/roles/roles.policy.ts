import type { Actor } from '../../core/actor.ts';
import { canSeeRole } from '../../core/policy.ts';

/**
 * The roles an actor may list (spec §5, §6): back-office users every role, INTERNAL ones included;
 * organization users the EXTERNAL roles plus ADMIN_ADHERENT, which they need to request an
 * administrator for their SIREN. ADMIN_OPCO (the back-office role) and any other INTERNAL role stay hidden.
 */
export function visibleRoles<R extends { code: string; type: 'INTERNAL' | 'EXTERNAL' }>(actor: Actor, roles: readonly R[]): R[] {
  return roles.filter((role) => canSeeRole(actor, role, 'requestAdministrator'));
}
