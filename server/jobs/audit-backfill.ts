// Fills in the journal's entries written before migration 0014 (their subject_search_text), oldest first, in
// batches of `batchSize` ids, each its own short transaction, until `runMs` has passed (one batch at least); the rest waits for the
// next run. Entries are taken once they are `settleMs` old, so that one still being written (its id taken,
// not yet committed) is never passed over. Once through, a run costs two index reads.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { backfillSubjectSearch, subjectSearchBackfillState } from '../features/audit/audit-backfill.repository.ts';
import type { ScheduledJob } from './runner.ts';

export function auditBackfillJob({ db, batchSize = 1_000, runMs = 4 * 60_000, settleMs = 10 * 60_000 }: { db: Kysely<Database>; batchSize?: number; runMs?: number; settleMs?: number }): ScheduledJob {
  return {
    name: 'audit.backfill',
    everyMs: 5 * 60_000,
    async run({ now, signal }) {
      const started = Date.now();
      const { doneThrough, settledThrough } = await subjectSearchBackfillState(db, new Date(now.getTime() - settleMs));
      let cursor = doneThrough;
      let filled = 0;
      while (cursor < settledThrough && !signal.aborted) {
        const upto = Math.min(cursor + batchSize, settledThrough);
        filled += await backfillSubjectSearch(db, cursor, upto);
        cursor = upto;
        if (Date.now() - started >= runMs) break;
      }
      return { filled, remaining: Math.max(0, settledThrough - cursor) };
    },
  };
}
