// The users export's reads: every user of a filter, in keyset batches, each batch with its assignments.
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { loadAssignments, sortKey, USER_COLUMNS, userFilter, type AssignmentRecord, type UserFilter, type UserRow } from './users-read.repository.ts';

/** Rows read per statement: about 150 kB of CSV, a few milliseconds of the database. */
export const EXPORT_BATCH_ROWS = 1_000;

/** A user as exported: every column but the pending address (not exported). */
export type ExportedUserRow = Omit<UserRow, 'pending_email'>;

export interface UserBatch {
  rows: ExportedUserRow[];
  /** The batch's users' assignments, all of them (the policy keeps what the caller may see). */
  assignments: AssignmentRecord[];
}

/** Where the previous batch ended: its last row's sort value (as text, exact to the microsecond) and id. */
interface After {
  key: string | null;
  id: string;
}

/** The sort value of a row, as text: compared back in SQL, never rounded by JavaScript. */
function keyOf(sort: UserFilter['sort']): RawBuilder<string | null> {
  if (sort === 'email') return sql<string>`lower(users.email)`;
  if (sort === 'lastLogin') return sql<string | null>`users.last_login_at::text`;
  return sql<string>`lower(users.last_name || users.first_name)`;
}

/**
 * The rows after `after` in the order of sortKey (ties by id in the same direction). The last-login sort puts null
 * last either way: it is read in two runs, each on its index (migration 0004) — the dated rows by (last_login_at,
 * id), then the undated ones by id — since one condition joining both with OR would read and sort the whole table.
 */
function afterCondition(filter: UserFilter, after: After | null, undated: boolean): RawBuilder<SqlBool> | null {
  const later = filter.order === 'desc' ? sql.raw('<') : sql.raw('>');
  if (filter.sort !== 'lastLogin') return after ? sql<SqlBool>`(${keyOf(filter.sort)}, users.id) ${later} (${after.key}, ${after.id}::uuid)` : null;
  if (undated) return after && after.key === null ? sql<SqlBool>`(users.last_login_at is null and users.id ${later} ${after.id}::uuid)` : sql<SqlBool>`users.last_login_at is null`;
  return after ? sql<SqlBool>`(users.last_login_at, users.id) ${later} (${after.key}::timestamptz, ${after.id}::uuid)` : sql<SqlBool>`users.last_login_at is not null`;
}

/**
 * Every user of the filter, batch after batch: each batch one statement on the sort index from where the last
 * ended (keyset: no offset, no transaction or connection held between batches), then one for its assignments.
 * Read lazily: the next batch is read only when the consumer asks (the answer's backpressure). A user changed
 * while the export runs appears as they are when their batch is read.
 */
export async function* usersInBatches(db: Kysely<Database>, filter: UserFilter, batchRows = EXPORT_BATCH_ROWS): AsyncGenerator<UserBatch> {
  let after: After | null = null;
  // The last-login sort's second run: the users who never signed in.
  let undated = false;
  for (;;) {
    const condition = afterCondition(filter, after, undated);
    const rows: (ExportedUserRow & { sort_key: string | null })[] = await db
      .selectFrom('users')
      .select(USER_COLUMNS)
      .select(keyOf(filter.sort).as('sort_key'))
      .where((eb): Expression<SqlBool> => (condition ? eb.and([userFilter(eb, filter), condition]) : userFilter(eb, filter)))
      .orderBy(sortKey(filter))
      .orderBy(sql`users.id ${filter.order === 'desc' ? sql.raw('desc') : sql.raw('asc')}`)
      .limit(sql.lit(batchRows))
      .execute();
    const last = rows.at(-1);
    if (last) {
      after = { key: last.sort_key, id: last.id };
      yield { rows, assignments: await loadAssignments(db, rows.map((r) => r.id)) };
    }
    if (rows.length < batchRows) {
      if (filter.sort !== 'lastLogin' || undated) return;
      undated = true;
      after = null;
    }
  }
}
