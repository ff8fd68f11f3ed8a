import type { Actor } from '../../core/actor.ts';
import { requireCanReadRetention } from './retention.policy.ts';
import { retentionItems, type RetentionItem, type RetentionSettings } from './retention.model.ts';

/** The retention table from the settings this server runs with (read once at start). */
export function retentionService({ retention }: { retention: RetentionSettings }) {
  const items = retentionItems(retention);
  return {
    describe(actor: Actor): RetentionItem[] {
      requireCanReadRetention(actor);
      return items;
    },
  };
}
