// Folding the users' search rows written before migration 0019, then writing the words of the users there before
// migration 0039, then the roles of those there before migration 0040, in batches of short transactions (neither migration rewrites a row: at a million users a rewrite
// would hold every write of users for its whole length). Each batch takes the next rows in id order, their counts
// following through the triggers. Run by server/jobs/search-backfill.ts.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface SearchBackfillState {
  afterId: string | null;
  done: boolean;
}

export async function searchBackfillState(db: Kysely<Database>): Promise<SearchBackfillState> {
  const row = await db.selectFrom('user_search_backfill').select(['after_id', 'done']).executeTakeFirst();
  return { afterId: row?.after_id ?? null, done: row?.done ?? true };
}

/**
 * One batch after `afterId`, in one transaction: the last id it passed, or null when the backfill is through. A
 * folded row may match other terms than before: the users lists' version moves with it (as the triggers of users do,
 * migration 0004), so that no process keeps a total counted before the batch (list-totals.ts).
 */
export async function backfillSearchBatch(db: Kysely<Database>, afterId: string | null, size: number): Promise<string | null> {
  const { rows } = await sql<{ last_id: string | null }>`
    with batch as (select backfill_user_search(${afterId}::uuid, ${size}) as last_id),
    bumped as (
      insert into list_versions as v (list, backend, version) values ('users', pg_backend_pid(), 1)
      on conflict (list, backend) do update set version = v.version + 1)
    select last_id from batch`.execute(db);
  return rows[0]?.last_id ?? null;
}

/** Where the words' backfill (migration 0039) stands. */
export async function searchWordsBackfillState(db: Kysely<Database>): Promise<SearchBackfillState> {
  const row = await db.selectFrom('user_search_words_backfill').select(['after_id', 'done']).executeTakeFirst();
  return { afterId: row?.after_id ?? null, done: row?.done ?? true };
}

/**
 * The words of one batch of users after `afterId`, in one transaction: the last id it passed, or null when the backfill
 * is through. No search reads the words before then, so no total kept elsewhere changes with a batch.
 */
export async function backfillSearchWordsBatch(db: Kysely<Database>, afterId: string | null, size: number): Promise<string | null> {
  const { rows } = await sql<{ last_id: string | null }>`select backfill_search_words(${afterId}::uuid, ${size}) as last_id`.execute(db);
  return rows[0]?.last_id ?? null;
}

/** Where the roles' backfill (migration 0040) stands. */
export async function searchRolesBackfillState(db: Kysely<Database>): Promise<SearchBackfillState> {
  const row = await db.selectFrom('user_search_roles_backfill').select(['after_id', 'done']).executeTakeFirst();
  return { afterId: row?.after_id ?? null, done: row?.done ?? true };
}

/**
 * The roles of one batch of users after `afterId` on their search rows and words, with their counts within roles, in
 * one transaction: the last id it passed, or null when the backfill is through. No search within a role reads them before then.
 */
export async function backfillSearchRolesBatch(db: Kysely<Database>, afterId: string | null, size: number): Promise<string | null> {
  const { rows } = await sql<{ last_id: string | null }>`select backfill_search_roles(${afterId}::uuid, ${size}) as last_id`.execute(db);
  return rows[0]?.last_id ?? null;
}
