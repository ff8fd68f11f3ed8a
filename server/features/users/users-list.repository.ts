// The users list (and the conditions exports and bulk actions share with it): a bounded number of statements
// whatever the page size or the page. A search alone is found by users-search.repository.ts.
import { sql, type AliasedRawBuilder, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { fromNearerEnd, pageOffset } from '../../core/pages.ts';
import { canonicalRoleCode, type AccountStateFilter, type UserScope } from './users.model.ts';
import type { OrganizationDto } from '../organizations/organizations.repository.ts';
import { PREPARE_ANYWAY } from '../../db/database.ts';
import { unseenIds } from '../../db/unseen.ts';
import { exactTotal, listsVersion, userCount, type ListName, type ListTotals, type TotalClock } from '../../db/list-totals.ts';
import { livePendingEmail, pendingInvitationFor, USER_COLUMNS, userAssignments, type AssignmentRecord, type UserRow } from './users-read.repository.ts';
import { searchCondition, searchPage, searchTerm, type SearchFound } from './users-search.repository.ts';
import { idsPage } from './users-search-texts.repository.ts';
import { isCountedTerm } from './users-search-term.repository.ts';
import { idOrder, sortKey, type UserSort } from './users-sort.repository.ts';
import { heldFirst, heldPageWay, searchTexts } from './users-search-words.model.ts';
import { filteredMergedPage, heldByCondition, heldWords, type HeldKind } from './users-search-words.repository.ts';
import { containsPattern } from '../../db/like.ts';
import { ACTIVITY, countDormant, dormantCondition } from './users-dormancy.repository.ts';
import type { Database } from '../../db/schema.ts';

export { sortKey, type UserSort } from './users-sort.repository.ts';

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
  /** Only the accounts in this state (listUsers' accountState; users.model.ts accountStateFilter). */
  accountState?: AccountStateFilter;
  /** The search found through the holders of its words or phrases first (few hold them: searchFirst), not along the list's order. */
  searchHeld?: SearchHeld;
}

/** A search found through its words' holders: where they are, how many hold them, and everyone when already counted. */
export interface SearchHeld {
  kind: HeldKind;
  holders: number;
  everyone?: number;
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

type UsersEb = ExpressionBuilder<Database, 'users'>;

/** Whether the list is filtered by more than is_active (and the caller left out): its total then needs a count. */
function isFiltered(query: UserFilter): boolean {
  return Boolean(query.search?.trim() || query.organization || query.roleCode || query.scope || query.accountState);
}

/** The condition of a list or an export on `users`: is_active, the caller left out, the search, the organization, the role, the scope. */
export function userFilter(eb: UsersEb, query: UserFilter): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [];
  if (!query.includeInactive) conditions.push(eb('users.is_active', '=', true));
  if (query.excludeUserId) conditions.push(eb('users.id', '<>', query.excludeUserId));
  if (query.userIds) conditions.push(sql<SqlBool>`users.id = any(${[...query.userIds]}::uuid[])`);
  if (query.accountState) conditions.push(accountStateCondition(query.accountState));
  const search = query.search?.trim();
  if (search && query.searchHeld) conditions.push(sql<SqlBool>`${heldByCondition(containsPattern(searchTerm(search).folded), query.searchHeld.kind)}`);
  else if (search) conditions.push(sql<SqlBool>`exists (select 1 from user_search as s where s.id = users.id and ${searchCondition(searchTerm(search))})`);
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
                // Unseen by the planner (server/db/unseen.ts): the statement's plan is the same for any reach, and kept.
                on.push(sql<SqlBool>`ra.organization_id = any(${unseenIds(reach)})`);
                on.push(held.length ? inner.or([sql<SqlBool>`ra.organization_id = any(${unseenIds(held)})`, sql<SqlBool>`ra.inherits_to_children`]) : sql<SqlBool>`ra.inherits_to_children`);
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
 * The users of an account state: active (a deactivated account waits for nothing, with includeInactive too).
 * Dormant: users-dormancy.repository.ts dormantCondition. A link not accepted: on the condition of
 * users_invitation_not_accepted_idx (migration 0026), and the link's age.
 */
function accountStateCondition(filter: AccountStateFilter): Expression<SqlBool> {
  if (filter.state === 'dormant') return dormantCondition(filter.cutoff);
  const notAccepted = sql<SqlBool>`users.is_active and users.last_login_at is null and users.invitation_sent_at is not null`;
  return filter.linkSentBefore ? sql<SqlBool>`(${notAccepted} and users.invitation_sent_at <= ${filter.linkSentBefore})` : sql<SqlBool>`(${notAccepted})`;
}

/**
 * From this offset on, a page of the whole list in name order is found through the ranges of migration 0004;
 * before it, skipping rows in the index costs less than adding up the ranges (about a thousand at 1M users).
 */
export const RANGES_FROM_OFFSET = 5_000;

export interface ListUsersOptions {
  /** Tests: another offset from which the ranges are used (RANGES_FROM_OFFSET). */
  rangesFromOffset?: number;
  /** Tests: how a page of a search alone is found, instead of the choice of searchPage (users-search.repository.ts). */
  searchAccess?: 'walk' | 'fetch' | 'words';
  /** Tests: another HELD_FIRST_AT_MOST (users-search-words.model.ts; 0: a search with other filters never starts from its words' holders). */
  heldFirstAtMost?: number;
}

/**
 * One page of users: two statements whatever the page size or the page — the total (the counters when
 * unfiltered, else a count kept while the data does not change: list-totals.ts); the page (its ids from
 * the sort index alone, or for a deep page of the whole list in name order through the name ranges, then
 * only its rows, their pending flag and their assignments: a deferred join). A search alone: its total and
 * its page's ids (or their subquery) from searchPage, then the rows and their assignments (one statement for a
 * search kept).
 */
export async function listUsersPage(db: Kysely<Database>, query: UserListQuery, totals: ListTotals | null = null, options: ListUsersOptions = {}): Promise<UserListPage> {
  const search = query.search?.trim();
  const offset = pageOffset(query);
  if (search && !query.organization && !query.scope && !query.userIds && !query.accountState) {
    // Within a role, as a search alone once every user's roles are on their words (migration 0040).
    const role = query.roleCode ? await searchRole(db, query.roleCode) : undefined;
    if (role === 'none') return { rows: [], assignments: [], total: 0 };
    if (role !== null) {
      const searchQuery = {
        ...query,
        offset,
        term: searchTerm(search),
        everyone: () => countUnfiltered(db, { includeInactive: query.includeInactive }),
        ...(role === undefined ? {} : { roleId: role }),
      };
      // A page read from what a search kept (users-search-texts.repository.ts) holds only at the version it was kept at,
      // read here with the rows: else the search is made again, without what it kept.
      const kept = await searchRows(db, query, await searchPage(db, searchQuery, totals, options.searchAccess));
      const { total, rows } = kept ?? (await searchRows(db, query, await searchPage(db, searchQuery, totals, options.searchAccess, { keptOutlook: false })))!;
      return { ...withAssignments(rows), total };
    }
  }
  // A search within an account state (or a role, until its backfill is through), which many users pass (not an
  // organization nor a reach: few do).
  if (search && !query.organization && !query.scope && !query.userIds) query = { ...query, ...(await searchFirst(db, search, query.includeInactive, options.heldFirstAtMost)) };
  const total = await userTotal(db, query, totals);
  if (total === 0 || offset >= total) return { rows: [], assignments: [], total };

  // The page's size and offset are written in the statement (literals): the planner knows how few rows it
  // reads, and the first page of a size is one text, prepared once per connection (database.ts).
  // A page in the second half is read from the other end (fromNearerEnd); the rows are sorted again below.
  const at = fromNearerEnd({ offset, pageSize: query.pageSize }, total);
  const searched = query.searchHeld;
  const way = searched
    ? heldPageWay({
        sort: query.sort,
        holders: searched.holders,
        total,
        everyone: query.sort === 'lastLogin' ? (searched.everyone ?? (await countUnfiltered(db, { includeInactive: query.includeInactive }))) : 0,
        offset: at.offset,
        pageSize: at.pageSize,
      })
    : null;
  // Walked by last sign-in: the search's own condition, along that order.
  if (way === 'walk') query = { ...query, searchHeld: undefined };
  const held = way === 'merge' ? searched!.kind : null;
  const ids =
    query.sort === 'name' && !isFiltered(query) && !query.excludeUserId && offset >= (options.rangesFromOffset ?? RANGES_FROM_OFFSET)
      ? pageIdsByNameRanges(query, offset, total)
      : held
        ? filteredMergedPage(containsPattern(searchTerm(search!).folded), held, othersThanSearch(db, query), { ...query, ...at }).as('page')
        : sql<{ id: string }>`${db
          .selectFrom('users')
          .select('users.id')
          .where((eb) => userFilter(eb, query))
          .orderBy(sortKey(query, at.reversed))
          .orderBy(idOrder(query, at.reversed))
          .limit(sql.lit(at.pageSize))
          .$if(at.offset > 0, (q) => q.offset(sql.lit(at.offset)))}`.as('page');
  return { ...withAssignments(await pageRows(db, query, ids)), total };
}

/** Whether the holder `p` of a search's word (filteredMergedPage) passes the list's other conditions. */
function othersThanSearch(db: Kysely<Database>, query: UserFilter): RawBuilder<boolean> {
  const { search: _, searchHeld: __, ...others } = query;
  const user = db.selectFrom('users').select(sql.lit(1).as('one')).where(sql<SqlBool>`users.id = p.id`).where((eb) => userFilter(eb, others));
  return sql<boolean>`exists (${user})`;
}

/**
 * The role of a search within a role, found as a search alone (migration 0040): its id; 'none' when no role has that
 * code (nobody holds it); null until every user's roles are written (the backfill): then the list's own way.
 */
async function searchRole(db: Kysely<Database>, roleCode: string): Promise<number | 'none' | null> {
  const { rows } = await sql<{ ready: boolean; id: number | null }>`
    select coalesce((select done from user_search_roles_backfill), false) as ready, (select id from roles where code = ${canonicalRoleCode(roleCode)}) as id`.execute(db);
  const row = rows[0];
  if (!row?.ready) return null;
  return row.id === null ? 'none' : row.id;
}

/** Where a search with other filters starts: from the holders of its words or phrases (heldFirst), else along the list's order. */
async function searchFirst(db: Kysely<Database>, search: string, includeInactive: boolean, atMost: number | undefined): Promise<Pick<UserFilter, 'searchHeld'>> {
  const term = searchTerm(search);
  const kind = searchTexts(term.folded);
  if (!kind) return {};
  const held = await heldWords(db, containsPattern(term.folded), kind, true);
  if (!held) return {};
  const holders = held.words.reduce((sum, w) => sum + w.n, 0);
  const counted = isCountedTerm(term);
  const everyone = counted && holders > 0 ? await countUnfiltered(db, { includeInactive }) : undefined;
  const starts = heldFirst({ holders, everyone: everyone ?? 0, counted, ...(atMost === undefined ? {} : { atMost }) });
  return starts ? { searchHeld: { kind, holders, ...(everyone === undefined ? {} : { everyone }) } } : {};
}

/** A page's rows, and their assignments read with them. */
function withAssignments(page: readonly PageRow[]): { rows: ListedUserRow[]; assignments: AssignmentRecord[] } {
  return { rows: page.map(({ assignments: _, ...row }) => row), assignments: page.flatMap((row) => row.assignments) };
}

/**
 * The rows of a search's page; null when the page was read from what a search kept (`atVersion`) and the users list's
 * version, read with the rows, is no longer that one.
 */
async function searchRows(db: Kysely<Database>, query: UserListQuery, found: SearchFound): Promise<{ total: number; rows: PageRow[] } | null> {
  if ('ids' in found && found.ids.length === 0) return { total: found.total, rows: [] };
  const page = 'ids' in found ? idsPage(found.ids) : found.page;
  const checked = 'atVersion' in found && found.atVersion !== undefined;
  const rows = await pageRows(db, query, page.as('page'), checked);
  if (checked && rows[0]?.list_version !== found.atVersion) return null;
  if (checked && 'keep' in found) found.keep?.(rows.map((row) => row.id));
  return { total: found.total, rows: rows.map(({ list_version: _, ...row }) => row) };
}

/** A row of a page, with the user's assignments. */
type PageRow = ListedUserRow & { assignments: AssignmentRecord[] };

/**
 * The rows of a page's ids (a deferred join), in the list's order, with their pending flag and their assignments (one
 * statement: each costs the server a write to PostgreSQL's socket, the largest part of a page's CPU under load); with
 * `version`, the users list's version in their snapshot.
 */
function pageRows(db: Kysely<Database>, query: UserListQuery, ids: AliasedRawBuilder<{ id: string }, 'page'>, version = false): Promise<(PageRow & { list_version?: number })[]> {
  const direction = query.order === 'desc' ? sql.raw('desc') : sql.raw('asc');
  return db
    .selectFrom(ids)
    .innerJoin('users', 'users.id', 'page.id')
    .select(USER_COLUMNS)
    .select(livePendingEmail)
    .select((eb) => pendingInvitationFor(eb, query.pendingReach).as('has_pending_invitation'))
    .select(userAssignments.as('assignments'))
    .$if(version, (q) => q.select(sql<number>`(${listsVersion(['users'])})::float8`.as('list_version')))
    .orderBy(sortKey(query))
    .orderBy(sql`users.id ${direction}`)
    .execute();
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

/**
 * The exact total of the list with these filters but a search alone (users-search.repository.ts): the counters, or a
 * count kept while the users list does not change (list-totals.ts). The dormant accounts of everyone (the back
 * office's, no other filter) from the counters of migration 0031; a state of accounts that moves with the clock is
 * kept besides only until the clock brings its next user in (totalClock).
 */
export function userTotal(db: Kysely<Database>, query: UserFilter, totals: ListTotals | null): Promise<number> {
  if (!isFiltered(query)) return countUnfiltered(db, query);
  const state = query.accountState;
  if (state?.state === 'dormant' && !query.search?.trim() && !query.organization && !query.roleCode && !query.scope && !query.userIds) {
    return countDormant(db, state.cutoff, query.excludeUserId ?? null);
  }
  // Dormancy follows sign-ins and warnings, which only the 'dormancy' version follows (migration 0033).
  const lists: ListName[] = state?.state === 'dormant' ? ['users', 'dormancy'] : ['users'];
  return exactTotal(db, lists, countUsers(db, query), totals, state ? totalClock(db, query, state) : null);
}

/**
 * A state whose users change with the time alone, dormancy and a link's age (list-totals.ts TotalClock): its cut-off's
 * distance to now, and the earliest moment of a user within the other filters but not yet in, dormancy's activity
 * (users_dormancy_activity_idx) or the link's sending (users_invitation_not_accepted_idx). Null when no cut-off moves:
 * 'Invitation non acceptée', and dormancy when the warning is off (warned accounts only).
 */
function totalClock(db: Kysely<Database>, query: UserFilter, state: AccountStateFilter): TotalClock | null {
  const cutoff = state.state === 'dormant' ? state.cutoff : state.linkSentBefore;
  if (cutoff === null) return null;
  const others = { ...query, accountState: undefined };
  const notYet =
    state.state === 'dormant'
      ? { moment: ACTIVITY, condition: sql<SqlBool>`users.is_active and users.dormancy_warned_at is null and ${ACTIVITY} > ${cutoff}::timestamptz` }
      : {
          moment: sql<Date>`users.invitation_sent_at`,
          condition: sql<SqlBool>`users.is_active and users.last_login_at is null and users.invitation_sent_at > ${cutoff}::timestamptz`,
        };
  const next = db
    .selectFrom('users')
    .select(sql<Date | null>`min(${notYet.moment})`.as('next'))
    .where((eb) => userFilter(eb, others))
    .where(notYet.condition);
  const stable = countUsers(db, { ...query, accountState: { ...state, ...(state.state === 'dormant' ? { cutoff: new Date(0) } : { linkSentBefore: new Date(0) }) } }).compile();
  const lag = state.at.getTime() - cutoff.getTime();
  return { now: state.at, lag, key: `${stable.sql}\u0000${JSON.stringify(stable.parameters)}\u0000${lag}`, next: sql<Date | null>`(${next})` };
}

/** The count of a filtered list (a search alone is counted by users-search.repository.ts). */
function countUsers(db: Kysely<Database>, query: UserFilter) {
  return db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => userFilter(eb, query));
}

/** Everyone (or every active user), from the counters; less the caller when left out. */
async function countUnfiltered(db: Kysely<Database>, query: Pick<UserFilter, 'includeInactive' | 'excludeUserId'>): Promise<number> {
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
