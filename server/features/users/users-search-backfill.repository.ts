// Folding the users' search rows written before migration 0019, then writing the words of the users there before
// migration 0039, then the roles of those there before migration 0040, then flagging their overlapping words (0041),
// in batches of short transactions (no such migration rewrites a row: at a million users a rewrite would hold every
// write of users for its whole length). Each batch takes the next rows in id order, their counts following through the
// triggers. Run by server/jobs/search-backfill.ts.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface SearchBackfillState {
  afterId: string | null;
  done: boolean;
}

/** The four phases, in their order: 0019's folding, 0039's words, 0040's roles, 0041's overlapping words. */
export type SearchBackfillPhase = 'fold' | 'words' | 'roles' | 'overlaps';

const STATE_TABLE = {
  fold: 'user_search_backfill',
  words: 'user_search_words_backfill',
  roles: 'user_search_roles_backfill',
  overlaps: 'user_search_overlaps_backfill',
} as const;
const BATCH = {
  words: (afterId: string | null, size: number) => sql`backfill_search_words(${afterId}::uuid, ${size})`,
  roles: (afterId: string | null, size: number) => sql`backfill_search_roles(${afterId}::uuid, ${size})`,
  overlaps: (afterId: string | null, size: number) => sql`backfill_search_overlaps(${afterId}::uuid, ${size})`,
} as const;

/** Where a phase stands (done when its row is missing: a database made after it). */
export async function searchBackfillState(db: Kysely<Database>, phase: SearchBackfillPhase): Promise<SearchBackfillState> {
  const row = await db.selectFrom(STATE_TABLE[phase]).select(['after_id', 'done']).executeTakeFirst();
  return { afterId: row?.after_id ?? null, done: row?.done ?? true };
}

/**
 * One batch of a phase after `afterId`, in one transaction: the last id it passed, or null when the phase is through.
 * A folded row may match other terms than before: the users lists' version moves with a folding batch (as the triggers
 * of users do, migration 0004), so that no process keeps a total counted before it (list-totals.ts). The words and the
 * roles are read by no search before their phase is through, so no total kept elsewhere changes with their batches.
 */
export async function backfillSearchBatch(db: Kysely<Database>, phase: SearchBackfillPhase, afterId: string | null, size: number): Promise<string | null> {
  if (phase === 'fold') {
    const { rows } = await sql<{ last_id: string | null }>`
      with batch as (select backfill_user_search(${afterId}::uuid, ${size}) as last_id),
      bumped as (
        insert into list_versions as v (list, backend, version) values ('users', pg_backend_pid(), 1)
        on conflict (list, backend) do update set version = v.version + 1)
      select last_id from batch`.execute(db);
    return rows[0]?.last_id ?? null;
  }
  const { rows } = await sql<{ last_id: string | null }>`select ${BATCH[phase](afterId, size)} as last_id`.execute(db);
  return rows[0]?.last_id ?? null;
}
