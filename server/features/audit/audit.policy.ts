import type { Actor } from '../../core/actor.ts';
import { requireBackOffice, requirePermission } from '../../core/policy.ts';

/**
 * The audit trail is for the back office only. Its entries carry the before/after of users' personal
 * details (names, e-mails, phones, roles), which is what USER_LIST guards: a back-office user without
 * USER_LIST does not see the users list, so does not see their history either. The read-only
 * back-office account (lecteur, USER_LIST only) may read it.
 */
export const AUDIT_PERMISSION = 'USER_LIST';

export function requireCanReadAudit(actor: Actor): void {
  requireBackOffice(actor);
  requirePermission(actor, AUDIT_PERMISSION);
}
