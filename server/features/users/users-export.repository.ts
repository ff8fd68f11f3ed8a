// The users export's reads: every user of a filter, in keyset batches, each batch with its assignments.
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { USER_COLUMNS, type UserRow } from './users-read.repository.ts';
import { sortKey, userFilter, type UserFilter } from './users-list.repository.ts';

/** Rows read per statement: about 150 kB of CSV, a few milliseconds of the database. */
export const EXPORT_BATCH_ROWS = 1_000;

/** A user as exported: every column but the pending address (not exported). */
export type ExportedUserRow = Omit<UserRow, 'pending_email'>;

/** An assignment as the export writes it: the role's name, the organization's name and code; its reach for the policy. */
export interface ExportedAssignment {
  userId: string;
  organizationId: string;
  organizationCode: string;
  organizationName: string;
  inheritsToChildren: boolean;
  roleName: string;
}

export interface UserBatch {
  rows: ExportedUserRow[];
  /** The batch's users' assignments, all of them (the policy keeps what the caller may see). */
  assignments: ExportedAssignment[];
}

/**
 * The assignments of a batch's users, by organization code then role code. The organization's code and name
 * are scalar subqueries on its primary key: joined, PostgreSQL hashed the whole organizations table for every
 * batch (about 100 ms at 200,000 organizations; this, about 40 ms for 1,000 users).
 */
export async function exportAssignments(db: Kysely<Database>, userIds: readonly string[]): Promise<ExportedAssignment[]> {
  if (userIds.length === 0) return [];
  const { rows } = await sql<{ user_id: string; organization_id: string; organization_code: string; organization_name: string; inherits_to_children: boolean; role_name: string }>`
    select a.user_id, a.organization_id, a.organization_code, a.organization_name, a.inherits_to_children, r.name as role_name
    from (
      select ra.user_id, ra.organization_id, ra.inherits_to_children, ra.role_id,
        (select o.code from organizations o where o.id = ra.organization_id) as organization_code,
        (select o.name from organizations o where o.id = ra.organization_id) as organization_name
      from role_assignments ra
      where ra.user_id = any(${[...userIds]}::uuid[])
      offset 0
    ) as a
    join roles r on r.id = a.role_id
    order by a.organization_code, r.code`.execute(db);
  return rows.map((row) => ({
    userId: row.user_id,
    organizationId: row.organization_id,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    inheritsToChildren: row.inherits_to_children,
    roleName: row.role_name,
  }));
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
      yield { rows, assignments: await exportAssignments(db, rows.map((r) => r.id)) };
    }
    if (rows.length < batchRows) {
      if (filter.sort !== 'lastLogin' || undated) return;
      undated = true;
      after = null;
    }
  }
}
