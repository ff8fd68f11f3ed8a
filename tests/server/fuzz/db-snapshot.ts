// What a refused request must leave as it was, read in one SQL statement: the row count of every table,
// and digests of what changes without changing a count: the users' versions and update times, the
// invitations' statuses, and list_versions (migration 0004), which every statement changing users,
// assignments, organizations or invitations moves on.
//
// The fast path: a write to a logged table, committed or not, moves the WAL's insert position, so a position
// that has not moved (and unlogged tables whose digests have not either) means nothing changed, without
// reading every table; a position that moved (a rolled back write, a page pruned by a read) falls back to the
// full comparison.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../server/db/schema.ts';

/** Columns whose digest is kept, in any table that has them (cheap ones: this runs after most requests). */
const DIGESTS: Record<string, (column: string) => string> = {
  version: (c) => `sum(${c})`,
  updated_at: (c) => `max(${c})`,
  status: (c) => `sum(hashtext(${c}::text))`,
};

/** The database at one moment: its WAL insert position, its unlogged tables' digests, and (read) every table's. */
export interface State {
  position: string;
  unlogged: string;
  digest: string;
}

export interface Snapshot {
  /** Every table's digests now. */
  take(): Promise<State>;
  /** Whether the database is as it was at `before`; `after` is read in full only when the WAL moved. */
  compare(before: State): Promise<{ unchanged: boolean; after: State }>;
}

type Row = { table_name: string; column_name: string; unlogged: boolean };

const digestOf = (tables: Map<string, string[]>) =>
  [...tables].map(([table, columns]) => {
    const digests = columns.filter((c) => DIGESTS[c]).map((c) => `coalesce((${DIGESTS[c]!(`"${c}"`)})::text, '')`);
    return `'${table}', (select concat_ws(':', count(*)${digests.map((d) => `, ${d}`).join('')}) from "${table}")`;
  });

/** The snapshot statements of this database's tables (listed once: a table added by a migration is included). */
export async function snapshotOf(db: Kysely<Database>): Promise<Snapshot> {
  const { rows } = await sql<Row>`
    select c.table_name, c.column_name, k.relpersistence = 'u' as unlogged from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    join pg_class k on k.oid = format('%I.%I', c.table_schema, c.table_name)::regclass
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE' order by c.table_name, c.ordinal_position`.execute(db);
  const all = new Map<string, string[]>();
  const unlogged = new Map<string, string[]>();
  for (const r of rows) {
    all.set(r.table_name, [...(all.get(r.table_name) ?? []), r.column_name]);
    if (r.unlogged) unlogged.set(r.table_name, [...(unlogged.get(r.table_name) ?? []), r.column_name]);
  }
  if (!all.size) throw new Error('no table found for the snapshot');
  const unloggedDigest = unlogged.size ? `json_build_object(${digestOf(unlogged).join(', ')})::text` : `''`;
  const quick = sql.raw<{ position: string; unlogged: string }>(`select pg_current_wal_insert_lsn()::text as position, ${unloggedDigest} as unlogged`);
  // The position read first: a write after it moves the next reading, never one before it.
  const full = sql.raw<{ position: string; unlogged: string; digest: unknown }>(
    `select pg_current_wal_insert_lsn()::text as position, ${unloggedDigest} as unlogged, json_build_object(${digestOf(all).join(', ')}) as digest`,
  );
  const take = async (): Promise<State> => {
    const row = (await full.execute(db)).rows[0]!;
    return { position: row.position, unlogged: row.unlogged, digest: JSON.stringify(row.digest) };
  };
  return {
    take,
    async compare(before) {
      const now = (await quick.execute(db)).rows[0]!;
      if (now.position === before.position && now.unlogged === before.unlogged) return { unchanged: true, after: before };
      const after = await take();
      return { unchanged: after.digest === before.digest, after };
    },
  };
}
