// Filling in what a migration added to the journal's existing entries, in batches of short transactions
// (migration 0014: subject_search_text), so that no migration holds the journal, and every audited write of the
// portal with it, for the time a rewrite of millions of entries takes. Run by server/jobs/audit-backfill.ts.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Where the backfill stands: filled in through `doneThrough`; `settledThrough`, the newest entry older than `settledBefore`. */
export async function subjectSearchBackfillState(db: Kysely<Database>, settledBefore: Date): Promise<{ doneThrough: number; settledThrough: number }> {
  const { rows } = await sql<{ done: string | number; settled: string | number }>`
    select (select done_through from audit_backfills where name = 'subject_search_text') as done,
           coalesce((select max(id) from audit_log where at < ${settledBefore}), 0) as settled`.execute(db);
  return { doneThrough: Number(rows[0]?.done ?? 0), settledThrough: Number(rows[0]?.settled ?? 0) };
}

/** One batch, (after, upto], and the mark moved past it, in one transaction: answers how many entries it filled in. */
export async function backfillSubjectSearch(db: Kysely<Database>, after: number, upto: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ filled: string | number }>`select backfill_audit_subject_search(${after}, ${upto}) as filled`.execute(trx);
    await sql`update audit_backfills set done_through = greatest(done_through, ${upto}) where name = 'subject_search_text'`.execute(trx);
    return Number(rows[0]?.filled ?? 0);
  });
}
