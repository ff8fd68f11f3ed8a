// The users list's sort orders, in both directions, ties broken by id: on users (whose indexes of migration 0004
// hold each), and the same keys in user_search (migration 0019), from which a search's matches are sorted.
import { sql, type RawBuilder } from 'kysely';

export type UserSort = 'name' | 'email' | 'lastLogin';

export interface SortOrder {
  sort: UserSort;
  order: 'asc' | 'desc';
}

const direction = (order: SortOrder['order']) => (order === 'desc' ? sql.raw('desc') : sql.raw('asc'));

/**
 * The sort of the list, on the table `users`, with its tie-break by id; `reversed`, the exact opposite order (read
 * from the other end: users without a last sign-in, last in both directions, then come first).
 */
export function sortKey(query: SortOrder, reversed = false): RawBuilder<unknown> {
  const order = reversed ? (query.order === 'desc' ? 'asc' : 'desc') : query.order;
  if (query.sort === 'email') return sql`lower(users.email) ${direction(order)}`;
  if (query.sort === 'lastLogin') return sql`users.last_login_at ${direction(order)} ${reversed ? sql`nulls first` : sql`nulls last`}`;
  return sql`lower(users.last_name || users.first_name) ${direction(order)}`;
}

/** The tie-break of sortKey. */
export function idOrder(query: SortOrder, reversed = false): RawBuilder<unknown> {
  return sql`users.id ${direction((query.order === 'desc') !== reversed ? 'desc' : 'asc')}`;
}

/**
 * The same key on a user_search row `s`: its copy once folded (migration 0019), else read from users (the rows
 * the backfill has not reached: a CASE reads users for those only).
 */
export function searchSortKey(query: SortOrder): RawBuilder<unknown> {
  const [copy, original] =
    query.sort === 'email' ? [sql`s.email_key`, sql`lower(u.email)`]
    : query.sort === 'lastLogin' ? [sql`s.last_login_at`, sql`u.last_login_at`]
    : [sql`s.name_key`, sql`lower(u.last_name || u.first_name)`];
  return sql`case when s.folded then ${copy} else (select ${original} from users as u where u.id = s.id) end`;
}

/** The order of rows holding such a key as `k` and their `id`. */
export function orderByKey(query: SortOrder): RawBuilder<unknown> {
  return sql`k ${direction(query.order)} ${query.sort === 'lastLogin' ? sql`nulls last` : sql``}, id ${direction(query.order)}`;
}
