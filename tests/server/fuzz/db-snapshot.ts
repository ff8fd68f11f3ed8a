// What a refused request must leave as it was, read in one SQL statement: the row count of every table,
// and digests of what changes without changing a count: the users' versions and update times, the
// invitations' statuses, and list_versions (migration 0004), which every statement changing users,
// assignments, organizations or invitations moves on.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../server/db/schema.ts';

/** Columns whose digest is kept, in any table that has them (cheap ones: this runs after most requests). */
const DIGESTS: Record<string, (column: string) => string> = {
  version: (c) => `sum(${c})`,
  updated_at: (c) => `max(${c})`,
  status: (c) => `sum(hashtext(${c}::text))`,
};

export type Snapshot = () => Promise<string>;

/** The snapshot statement of this database's tables (listed once: a table added by a migration is included). */
export async function snapshotOf(db: Kysely<Database>): Promise<Snapshot> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE' order by c.table_name, c.ordinal_position`.execute(db);
  const tables = new Map<string, string[]>();
  for (const r of rows) tables.set(r.table_name, [...(tables.get(r.table_name) ?? []), r.column_name]);
  if (!tables.size) throw new Error('no table found for the snapshot');
  const parts = [...tables].map(([table, columns]) => {
    const digests = columns.filter((c) => DIGESTS[c]).map((c) => `coalesce((${DIGESTS[c]!(`"${c}"`)})::text, '')`);
    return `'${table}', (select concat_ws(':', count(*)${digests.map((d) => `, ${d}`).join('')}) from "${table}")`;
  });
  const statement = sql.raw<{ snapshot: unknown }>(`select json_build_object(${parts.join(', ')}) as snapshot`);
  return async () => JSON.stringify((await statement.execute(db)).rows[0]!.snapshot);
}
