// Copies the journal's existing entries' actions beside their organizations (migration 0028), oldest first, in
// batches of `batchSize` entry ids, each its own short transaction, until `runMs` has passed (one batch at least);
// the rest waits for the next run. Rows written after the migration carry their action already, so the work ends at
// the bound the migration recorded. Once through, a run costs one read, and the journal's filters by action read
// the copy (server/features/audit/audit-list.repository.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { backfillOrganizationActions, organizationActionBackfillState } from '../features/audit/audit-backfill.repository.ts';
import type { ScheduledJob } from './runner.ts';

export function auditOrganizationActionsJob({ db, batchSize = 1_000, runMs = 4 * 60_000 }: { db: Kysely<Database>; batchSize?: number; runMs?: number }): ScheduledJob {
  return {
    name: 'audit.organization-actions',
    everyMs: 5 * 60_000,
    async run({ signal }) {
      const started = Date.now();
      const { doneThrough, upto } = await organizationActionBackfillState(db);
      let cursor = doneThrough;
      let filled = 0;
      while (cursor < upto && !signal.aborted) {
        const next = Math.min(cursor + batchSize, upto);
        filled += await backfillOrganizationActions(db, cursor, next);
        cursor = next;
        if (Date.now() - started >= runMs) break;
      }
      return { filled, remaining: Math.max(0, upto - cursor) };
    },
  };
}
