// Folds the users' search rows migration 0019 found (their accents and case, and their counts of short strings), then
// writes the words of the users migration 0039 found, then the roles of those migration 0040 found, then flags their
// overlapping words (0041), in batches of `batchSize` rows, each its own short transaction, until `runMs` has passed
// (one batch at least); the rest waits for the next run. Once through, a run costs four reads. Until the folding is
// through the search keeps its former meaning too and counts its totals; until the words are written it does not read them, nor the roles until they are,
// nor the overlapping words' flags (server/features/users/users-search.repository.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { backfillSearchBatch, searchBackfillState, type SearchBackfillPhase } from '../features/users/users-search-backfill.repository.ts';
import type { ScheduledJob } from './runner.ts';

export function searchBackfillJob({ db, batchSize = 1_000, runMs = 50_000 }: { db: Kysely<Database>; batchSize?: number; runMs?: number }): ScheduledJob {
  return {
    name: 'search.backfill',
    everyMs: 60_000,
    async run({ signal }) {
      const started = Date.now();
      let batches = 0;
      // The words are written from the folded rows, their roles on the words: the folding first, the roles last.
      const phases: SearchBackfillPhase[] = ['fold', 'words', 'roles', 'overlaps'];
      for (const phase of phases) {
        let { afterId, done } = await searchBackfillState(db, phase);
        while (!done && !signal.aborted && (batches === 0 || Date.now() - started < runMs)) {
          afterId = await backfillSearchBatch(db, phase, afterId, batchSize);
          batches += 1;
          done = afterId === null;
        }
        if (!done) return { batches, done: 0 };
      }
      return { batches, done: 1 };
    },
  };
}
