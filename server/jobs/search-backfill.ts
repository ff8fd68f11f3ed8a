// Folds the users' search rows migration 0019 found (their accents and case, and their counts of short strings), in
// batches of `batchSize` rows, each its own short transaction, until `runMs` has passed (one batch at least); the
// rest waits for the next run. Once through, a run costs one read. Until then the search keeps its former meaning
// too, and counts its totals (server/features/users/users-search.repository.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { backfillSearchBatch, searchBackfillState } from '../features/users/users-search-backfill.repository.ts';
import type { ScheduledJob } from './runner.ts';

export function searchBackfillJob({ db, batchSize = 1_000, runMs = 50_000 }: { db: Kysely<Database>; batchSize?: number; runMs?: number }): ScheduledJob {
  return {
    name: 'search.backfill',
    everyMs: 60_000,
    async run({ signal }) {
      const started = Date.now();
      let { afterId, done } = await searchBackfillState(db);
      let batches = 0;
      while (!done && !signal.aborted) {
        afterId = await backfillSearchBatch(db, afterId, batchSize);
        batches += 1;
        done = afterId === null;
        if (Date.now() - started >= runMs) break;
      }
      return { batches, done: done ? 1 : 0 };
    },
  };
}
