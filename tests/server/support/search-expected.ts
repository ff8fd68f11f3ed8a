// The users a search finds by the rule (issue 20), folded here in TypeScript rather than by the database: a
// substring of the full name or of the e-mail, case and accents ignored; within a role, among that role's holders. The
// ids in the list's order.
import { sql, type Kysely } from 'kysely';
import { searchFold } from '../../../server/core/search-fold.ts';
import { sortKey, type UserListQuery } from '../../../server/features/users/users-list.repository.ts';
import type { Database } from '../../../server/db/schema.ts';

export async function expectedSearch(db: Kysely<Database>, term: string, query: Pick<UserListQuery, 'includeInactive' | 'sort' | 'order' | 'roleCode'>): Promise<string[]> {
  const { roleCode } = query;
  const everyone = await db
    .selectFrom('users')
    .select(['users.id', 'first_name', 'last_name', 'email', 'is_active'])
    .$if(roleCode !== undefined, (q) =>
      q.where((eb) => eb.exists(eb.selectFrom('role_assignments as ra').innerJoin('roles as r', 'r.id', 'ra.role_id').whereRef('ra.user_id', '=', 'users.id').where('r.code', '=', roleCode!))),
    )
    .execute();
  const wanted = searchFold(term);
  const ids = everyone
    .filter((u) => (u.is_active || query.includeInactive) && (searchFold(`${u.first_name} ${u.last_name}`).includes(wanted) || searchFold(u.email).includes(wanted)))
    .map((u) => u.id);
  if (ids.length === 0) return [];
  const direction = query.order === 'desc' ? sql.raw('desc') : sql.raw('asc');
  const ordered = await db.selectFrom('users').select('users.id').where('users.id', 'in', ids).orderBy(sortKey(query)).orderBy(sql`users.id ${direction}`).execute();
  return ordered.map((r) => r.id);
}
