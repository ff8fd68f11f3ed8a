// Filling in what a migration added to the journal's existing entries, in batches of short transactions
// (migration 0014: subject_search_text; 0028: the actions beside the organizations), so that no migration holds the journal, and every audited write of the
// portal with it, for the time a rewrite of millions of entries takes. Run by server/jobs/audit-backfill.ts and audit-organization-actions.ts.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Where the backfill stands: filled in through `doneThrough`; `settledThrough`, the newest entry older than `settledBefore`. */
export async function subjectSearchBackfillState(db: Kysely<Database>, settledBefore: Date): Promise<{ doneThrough: number; settledThrough: number }> {
  const { rows } = await sql<{ done: string | number; settled: string | number }>`
    select (select done_through from audit_backfills where name = 'subject_search_text') as done,
           coalesce((select max(id) from audit_log where at < ${settledBefore}), 0) as settled`.execute(db);
  return { doneThrough: Number(rows[0]?.done ?? 0), settledThrough: Number(rows[0]?.settled ?? 0) };
}

/** The backfills of the journal's migrations, by their row in audit_backfills, and the function that fills one batch. */
const BATCH_FUNCTIONS = {
  subject_search_text: sql.raw('backfill_audit_subject_search'),
  organization_action: sql.raw('backfill_audit_organization_action'),
} as const;

/** One batch of a backfill, (after, upto], and its mark moved past it, in one transaction: answers how many rows it filled in. */
async function backfillBatch(db: Kysely<Database>, name: keyof typeof BATCH_FUNCTIONS, after: number, upto: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ filled: string | number }>`select ${BATCH_FUNCTIONS[name]}(${after}, ${upto}) as filled`.execute(trx);
    await sql`update audit_backfills set done_through = greatest(done_through, ${upto}) where name = ${name}`.execute(trx);
    return Number(rows[0]?.filled ?? 0);
  });
}

/** One batch of migration 0014's subject_search_text: answers how many entries it filled in. */
export const backfillSubjectSearch = (db: Kysely<Database>, after: number, upto: number) => backfillBatch(db, 'subject_search_text', after, upto);

/**
 * Where the copy of the entries' actions beside their organizations stands (migration 0028): filled in through
 * `doneThrough`, up to `upto` (the last entry written before the migration; later rows are written with theirs).
 */
export async function organizationActionBackfillState(db: Kysely<Database>): Promise<{ doneThrough: number; upto: number }> {
  const { rows } = await sql<{ done_through: string | number; upto: string | number | null }>`
    select done_through, upto from audit_backfills where name = 'organization_action'`.execute(db);
  return { doneThrough: Number(rows[0]?.done_through ?? 0), upto: Number(rows[0]?.upto ?? 0) };
}

/** One batch of that copy: answers how many rows it filled in. */
export const backfillOrganizationActions = (db: Kysely<Database>, after: number, upto: number) => backfillBatch(db, 'organization_action', after, upto);

/**
 * Whether every row of audit_log_organizations holds its entry's action, so that a filter by action may read it
 * there: one read of the copy's row (a primary key), at each request that could use it.
 */
export async function organizationActionsCopied(db: Kysely<Database>): Promise<boolean> {
  const { doneThrough, upto } = await organizationActionBackfillState(db);
  return doneThrough >= upto;
}
