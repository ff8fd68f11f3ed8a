// Reading users: the list (a bounded number of statements whatever the page size), one user, their assignments.
import { sql, type CompiledQuery, type Expression, type ExpressionBuilder, type ExpressionWrapper, type InferResult, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { pageOffset } from '../../core/pages.ts';
import { canonicalRoleCode, type UserScope } from './users.model.ts';
import { ORGANIZATION_COLUMNS, toOrganizationDto, type OrganizationDto } from '../organizations/organizations.repository.ts';
import { rolePermissions } from '../roles/roles.repository.ts';
import { PREPARE_ANYWAY } from '../../db/database.ts';
import { sqlCompiler } from '../../db/compiler.ts';
import { exactTotal, userCount, type ListTotals } from '../../db/list-totals.ts';
import type { Database, OrganizationType, RoleType, UserRow } from '../../db/schema.ts';

export type { UserRow } from '../../db/schema.ts';

/** Every column of users, named: a statement selecting `*` is never prepared (database.ts). */
export const USER_COLUMNS = [
  'users.id', 'users.auth_id', 'users.email', 'users.first_name', 'users.last_name', 'users.job_title', 'users.phone_number', 'users.mobile_phone',
  'users.street', 'users.postal_code', 'users.city', 'users.metadata', 'users.user_type', 'users.is_active', 'users.last_login_at', 'users.created_at',
  'users.updated_at', 'users.version', 'users.invitation_sent_at',
] as const satisfies readonly `users.${keyof UserRow}`[];

/** users.pending_email while its confirmation link is still good (24 h), else null: an expired request waits no more. */
export const livePendingEmail = sql<string | null>`case when exists (select 1 from email_change_tokens t where t.user_id = users.id and t.expires_at > now()) then users.pending_email end`.as('pending_email');

export interface AssignmentRecord {
  id: string;
  userId: string;
  organizationId: string;
  organizationCode: string;
  organizationName: string;
  organizationType: OrganizationType;
  parentId: string | null;
  parentCode: string | null;
  inheritsToChildren: boolean;
  roleId: number;
  roleCode: string;
  roleName: string;
  roleType: RoleType;
  rolePermissions: string[];
}

export async function findUser(db: Kysely<Database>, id: string, options: { forUpdate?: boolean } = {}): Promise<UserRow | undefined> {
  const query = db.selectFrom('users').select(USER_COLUMNS).select(livePendingEmail).where('id', '=', id);
  return options.forUpdate ? query.forUpdate().executeTakeFirst() : query.executeTakeFirst();
}

/**
 * Every assignment of these users, with organization and role, in one statement. The users as one array
 * parameter: a single text, built once and prepared once per connection (database.ts), whatever their number.
 */
export async function loadAssignments(db: Kysely<Database>, userIds: readonly string[]): Promise<AssignmentRecord[]> {
  if (userIds.length === 0) return [];
  const { rows } = await db.executeQuery<AssignmentRow>({ ...ASSIGNMENTS_QUERY, parameters: [[...userIds]] });
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    organizationId: row.organization_id,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    organizationType: row.organization_type,
    parentId: row.parent_id,
    parentCode: row.parent_code,
    inheritsToChildren: row.inherits_to_children,
    roleId: row.role_id,
    roleCode: row.role_code,
    roleName: row.role_name,
    roleType: row.role_type,
    rolePermissions: row.role_permissions,
  }));
}

function assignmentsOf(db: Kysely<Database>, userIds: string[]) {
  return db
    .selectFrom('role_assignments as ra')
    .innerJoin('organizations as o', 'o.id', 'ra.organization_id')
    .innerJoin('roles as r', 'r.id', 'ra.role_id')
    .where(sql<SqlBool>`ra.user_id = any(${userIds}::uuid[])`)
    .select([
      'ra.id',
      'ra.user_id',
      'ra.inherits_to_children',
      'o.id as organization_id',
      'o.code as organization_code',
      'o.name as organization_name',
      'o.type as organization_type',
      'o.parent_id',
      'o.parent_code',
      'r.id as role_id',
      'r.code as role_code',
      'r.name as role_name',
      'r.type as role_type',
    ])
    .select(rolePermissions.as('role_permissions'))
    .orderBy('o.code')
    .orderBy('r.code');
}

type AssignmentRow = InferResult<ReturnType<typeof assignmentsOf>>[number];
const ASSIGNMENTS_QUERY: CompiledQuery<AssignmentRow> = assignmentsOf(sqlCompiler, []).compile();

export async function ownPermissions(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('user_permissions').select('permission_code').where('user_id', '=', userId).execute();
  return rows.map((r) => r.permission_code);
}

/**
 * Organizations that can be offered on the edit page: these ids, plus (for `withChildrenOf`) every
 * SIRET of these SIRENs. Sorted by code.
 */
export async function loadOrganizationsForEdit(
  db: Kysely<Database>,
  input: { ids: readonly string[]; withChildrenOf: readonly string[] },
): Promise<OrganizationDto[]> {
  if (input.ids.length === 0 && input.withChildrenOf.length === 0) return [];
  const rows = await db
    .selectFrom('organizations')
    .select(ORGANIZATION_COLUMNS)
    .where((eb) => {
      const conditions: Expression<SqlBool>[] = [];
      if (input.ids.length) conditions.push(eb('id', 'in', [...input.ids]));
      if (input.withChildrenOf.length) conditions.push(eb('parent_id', 'in', [...input.withChildrenOf]));
      return eb.or(conditions);
    })
    .orderBy('code')
    .execute();
  return rows.map(toOrganizationDto);
}

// ---------------------------------------------------------------------------------------------
// The list.

export type UserSort = 'name' | 'email' | 'lastLogin';

/** Which users a list or an export keeps, and in which order (listUsers and exportUsers alike). */
export interface UserFilter {
  search?: string;
  /** The filter organization, already found (its type and parent decide the condition). */
  organization?: OrganizationDto;
  roleCode?: string;
  includeInactive: boolean;
  sort: UserSort;
  order: 'asc' | 'desc';
  /** Organization users: only users holding a role within this reach. Null: everyone. */
  scope: UserScope | null;
  /** Leaves this user out (the caller, for excludeSelf): in the count as in the page. */
  excludeUserId?: string;
  /** Only these users (a selection of the list: exportSelectedUsers). */
  userIds?: readonly string[];
}

export interface UserListQuery extends UserFilter {
  page: number;
  pageSize: number;
  /** Organizations whose pending requests count for hasPendingInvitation (policy pendingRequestReach). Null: all. */
  pendingReach: ReadonlySet<string> | null;
}

/** A listed user, and whether a request for them is pending where the caller may see it (see pendingInvitationFor). */
export type ListedUserRow = UserRow & { has_pending_invitation: boolean };

export interface UserListPage {
  rows: ListedUserRow[];
  assignments: AssignmentRecord[];
  total: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

type UsersEb = ExpressionBuilder<Database, 'users'>;

/** Whether the list is filtered by more than is_active (and the caller left out): its total then needs a count. */
function isFiltered(query: UserFilter): boolean {
  return Boolean(query.search?.trim() || query.organization || query.roleCode || query.scope);
}

/** The condition of a list or an export on `users`: is_active, the caller left out, the search, the organization, the role, the scope. */
export function userFilter(eb: UsersEb, query: UserFilter): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [];
  if (!query.includeInactive) conditions.push(eb('users.is_active', '=', true));
  if (query.excludeUserId) conditions.push(eb('users.id', '<>', query.excludeUserId));
  if (query.userIds) conditions.push(sql<SqlBool>`users.id = any(${[...query.userIds]}::uuid[])`);
  const search = query.search?.trim();
  if (search) conditions.push(searchCondition(search, ON_USERS));
  const { organization, roleCode, scope } = query;
  // An organization user's list never holds a back-office account, whatever roles it holds.
  if (scope) conditions.push(eb('users.user_type', '=', sql.lit('ORGANIZATION')));
  if (organization || roleCode || scope) {
    // One assignment must satisfy every assignment condition: 'holds role R in organization O, within the reach'.
    // Written as lists of organizations (no OR across columns), so that the planner estimates them and starts
    // from role_assignments_organization_idx for an organization or a reach.
    conditions.push(
      eb(
        'users.id',
        'in',
        eb
          .selectFrom('role_assignments as ra')
          .select('ra.user_id')
          .where((inner) => {
            const on: Expression<SqlBool>[] = [];
            if (organization) {
              if (organization.type === 'SIREN') {
                // The SIREN and its SIRETs.
                on.push(inner('ra.organization_id', 'in', inner.selectFrom('organizations as o').select('o.id').where((o) => o.or([o('o.id', '=', organization.id), o('o.parent_id', '=', organization.id)]))));
              } else if (organization.parentId) {
                // The SIRET, and its SIREN when held with inheritsToChildren.
                on.push(inner('ra.organization_id', 'in', [organization.id, organization.parentId]));
                on.push(inner.or([inner('ra.organization_id', '=', organization.id), inner('ra.inherits_to_children', '=', true)]));
              } else {
                on.push(inner('ra.organization_id', '=', organization.id));
              }
            }
            if (roleCode) {
              on.push(inner('ra.role_id', 'in', inner.selectFrom('roles as fr').select('fr.id').where('fr.code', '=', canonicalRoleCode(roleCode))));
            }
            if (scope) {
              // Held in the scope, or on a parent SIREN of it with inheritsToChildren.
              const held = [...scope.organizationIds];
              const reach = [...new Set([...held, ...scope.parentIds])];
              if (reach.length === 0) on.push(sql<SqlBool>`false`);
              else {
                on.push(inner('ra.organization_id', 'in', reach));
                on.push(held.length ? inner.or([inner('ra.organization_id', 'in', held), inner('ra.inherits_to_children', '=', true)]) : inner('ra.inherits_to_children', '=', true));
              }
            }
            return inner.and(on);
          }),
      ),
    );
  }
  return eb.and(conditions);
}

/**
 * The full name and e-mail a search reads, exactly as indexed: on users (migration 0001, and 0004 for the
 * '@' cases, whose indexes take them as stored), or in user_search (0004, already lower-cased).
 */
interface SearchColumns {
  name: RawBuilder<string>;
  email: RawBuilder<string>;
  storedName: RawBuilder<string>;
  storedEmail: RawBuilder<string>;
}

const ON_USERS: SearchColumns = {
  name: sql`lower(users.first_name || ' ' || users.last_name)`,
  email: sql`lower(users.email)`,
  storedName: sql`(users.first_name || ' ' || users.last_name)`,
  storedEmail: sql`users.email`,
};
const ON_USER_SEARCH: SearchColumns = { name: sql`s.name`, email: sql`s.email`, storedName: sql`s.name`, storedEmail: sql`s.email` };

/**
 * A case-insensitive substring of the full name or of the e-mail, on the trigram-indexed expressions; for
 * the e-mail, when the search holds an '@' with text on both sides, the same meaning through the prefixes
 * of the e-mail parts indexes (migration 0004): in an address with one '@', the text before the search's
 * '@' ends the local part and the text after it starts the domain; and a full name holds such a search
 * only if it holds an '@' (the name-has-@ indexes). Addresses with several '@' keep the trigram search.
 */
export function searchCondition(search: string, on: SearchColumns = ON_USERS): Expression<SqlBool> {
  const pattern = `%${escapeLike(search)}%`;
  const name = sql<SqlBool>`${on.name} like lower(${pattern})`;
  const at = search.indexOf('@');
  const before = at > 0 ? search.slice(0, at) : '';
  const after = at >= 0 ? search.slice(at + 1) : '';
  if (!before || !after) return sql<SqlBool>`(${name} or ${on.email} like lower(${pattern}))`;
  const endOfLocalPart = `${escapeLike([...before].reverse().join(''))}%`;
  const startOfDomain = `${escapeLike(after)}%`;
  return sql<SqlBool>`((strpos(${on.storedName}, '@') > 0 and ${name})
    or (reverse(split_part(${on.email}, '@', 1)) like lower(${endOfLocalPart})
        and split_part(${on.email}, '@', 2) like lower(${startOfDomain}) and ${on.storedEmail} not like '%@%@%')
    or (${on.storedEmail} like '%@%@%' and ${on.email} like lower(${pattern})))`;
}

/**
 * Whether a PENDING invitation exists for the user's email (case-insensitive), on any organization (`reach`
 * null) or on one of `reach`. Served by the partial unique index invitations_one_pending_key
 * (lower(invitee_email), … WHERE status = 'PENDING').
 */
export function pendingInvitationFor<DB extends Database, TB extends 'users' & keyof DB>(eb: ExpressionBuilder<DB, TB>, reach: ReadonlySet<string> | null): ExpressionWrapper<DB, TB, boolean> {
  const inner = eb as unknown as UsersEb;
  return inner
    .exists(
      inner
        .selectFrom('invitations as inv')
        .select(sql.lit(1).as('one'))
        .where(sql<SqlBool>`lower(inv.invitee_email) = lower(users.email)`)
        // A literal, not a parameter: a prepared statement's generic plan then still proves the partial index's predicate.
        .where('inv.status', '=', sql.lit('PENDING'))
        .$if(reach !== null, (q) => (reach!.size ? q.where('inv.organization_id', 'in', [...reach!]) : q.where(sql<SqlBool>`false`))),
    )
    // PostgreSQL answers exists() as a boolean.
    .$castTo<boolean>() as unknown as ExpressionWrapper<DB, TB, boolean>;
}

/** The sort of the list, on the table `users`, in both directions; ties broken by id (migration 0004 indexes each). */
export function sortKey(query: Pick<UserFilter, 'sort' | 'order'>) {
  const direction = query.order === 'desc' ? sql.raw('desc') : sql.raw('asc');
  if (query.sort === 'email') return sql`lower(users.email) ${direction}`;
  if (query.sort === 'lastLogin') return sql`users.last_login_at ${direction} nulls last`;
  return sql`lower(users.last_name || users.first_name) ${direction}`;
}

/**
 * From this offset on, a page of the whole list in name order is found through the ranges of migration 0004;
 * before it, skipping rows in the index costs less than adding up the ranges (about a thousand at 1M users).
 */
export const RANGES_FROM_OFFSET = 5_000;

export interface ListUsersOptions {
  /** Tests: another offset from which the ranges are used (RANGES_FROM_OFFSET). */
  rangesFromOffset?: number;
}

/**
 * One page of users: three statements whatever the page size or the page — the total (the counters when
 * unfiltered, else a count kept while the data does not change: list-totals.ts); the page (its ids from
 * the sort index alone, or for a deep page of the whole list in name order through the name ranges, then
 * only its rows and their pending flag: a deferred join); the page's assignments.
 */
export async function listUsersPage(db: Kysely<Database>, query: UserListQuery, totals: ListTotals | null = null, options: ListUsersOptions = {}): Promise<UserListPage> {
  const total = isFiltered(query) ? await exactTotal(db, 'users', countUsers(db, query), totals) : await countUnfiltered(db, query);
  const offset = pageOffset(query);
  if (total === 0 || offset >= total) return { rows: [], assignments: [], total };

  const direction = query.order === 'desc' ? sql.raw('desc') : sql.raw('asc');
  // The page's size and offset are written in the statement (literals): the planner knows how few rows it
  // reads, and the first page of a size is one text, prepared once per connection (database.ts).
  const ids =
    query.sort === 'name' && !isFiltered(query) && !query.excludeUserId && offset >= (options.rangesFromOffset ?? RANGES_FROM_OFFSET)
      ? pageIdsByNameRanges(query, offset, total)
      : sql<{ id: string }>`${db
          .selectFrom('users')
          .select('users.id')
          .where((eb) => userFilter(eb, query))
          .orderBy(sortKey(query))
          .orderBy(sql`users.id ${direction}`)
          .limit(sql.lit(query.pageSize))
          .$if(offset > 0, (q) => q.offset(sql.lit(offset)))}`.as('page');
  const rows = await db
    .selectFrom(ids)
    .innerJoin('users', 'users.id', 'page.id')
    .select(USER_COLUMNS)
    .select(livePendingEmail)
    .select((eb) => pendingInvitationFor(eb, query.pendingReach).as('has_pending_invitation'))
    .orderBy(sortKey(query))
    .orderBy(sql`users.id ${direction}`)
    .execute();
  const assignments = await loadAssignments(db, rows.map((r) => r.id));
  return { rows, assignments, total };
}

/**
 * The ids of a page of the whole list in name order (either direction), whatever the page, from the
 * ranges of migration 0004: the range holding the page's first position (adding up the sizes of those
 * before it), then at most a range skipped in users_name_sort_idx. Positions count from the start of
 * the name order: a page in descending order is the same rows read from the other end. The page's size
 * is a constant for the planner (from the total just read).
 */
function pageIdsByNameRanges(query: UserListQuery, offset: number, total: number) {
  const descending = query.order === 'desc';
  const rows = descending ? Math.max(0, Math.min(query.pageSize, total - offset)) : query.pageSize;
  // Prepared (database.ts): whatever the page, the plan is the same index scan from a range's start.
  return sql<{ id: string }>`(${sql.raw(PREPARE_ANYWAY)}
    with placed as (
      select start_key, start_id, (sum(n) over (order by start_key, start_id) - n)::bigint as before, (sum(n) over ())::bigint as total
      from (select start_key, start_id, case when ${query.includeInactive} then n_active + n_inactive else n_active end as n from user_name_ranges) as ranges
    ), wanted as (
      select case when ${descending} then greatest(0, total - ${offset} - ${rows}) else ${offset} end as first from placed limit 1
    ), target as (
      select p.start_key, p.start_id, w.first - p.before as skip
      from placed as p cross join wanted as w where p.before <= w.first
      order by p.start_key desc, p.start_id desc limit 1
    )
    select users.id from users
    where (lower(users.last_name || users.first_name), users.id) >= (select start_key, start_id from target)
      and (users.is_active or ${query.includeInactive})
    order by lower(users.last_name || users.first_name), users.id
    limit ${sql.lit(rows)} offset (select skip from target)
  )`.as('page');
}

/** The count of a filtered list; a search alone (besides is_active and the caller) is counted on user_search. */
function countUsers(db: Kysely<Database>, query: UserListQuery) {
  const search = query.search?.trim();
  if (search && !query.organization && !query.roleCode && !query.scope) {
    return db
      .selectFrom('user_search as s')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .$if(!query.includeInactive, (q) => q.where('s.is_active', '=', true))
      .$if(Boolean(query.excludeUserId), (q) => q.where('s.id', '<>', query.excludeUserId!))
      .where(searchCondition(search, ON_USER_SEARCH));
  }
  return db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => userFilter(eb, query));
}

/** Everyone (or every active user), from the counters; less the caller when left out. */
async function countUnfiltered(db: Kysely<Database>, query: UserListQuery): Promise<number> {
  const self = query.excludeUserId;
  const row = await db
    .selectNoFrom([
      (self
        ? sql<number>`${userCount(query.includeInactive)} - (select count(*) from users where users.id = ${self} and (users.is_active or ${query.includeInactive}))`
        : userCount(query.includeInactive)
      ).as('total'),
    ])
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
