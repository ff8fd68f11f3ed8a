import type { Actor } from '../../core/actor.ts';
import { requireBackOffice } from '../../core/policy.ts';

/** 'Durées de conservation' is the back office's (issue 23): anyone else gets 403. */
export function requireCanReadRetention(actor: Actor): void {
  requireBackOffice(actor);
}
