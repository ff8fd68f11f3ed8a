// Reading the journal (OpenAPI AuditEntry, AuditEntryList): the entries a filter and a scope keep, newest first
// (ties by id), a page of them with its exact total, or batches after a key (the CSV export). Writing is
// audit.repository.ts; what a page's sentences need is journal-lookups.repository.ts.
import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { pageOffset, type PageRequest } from '../../core/pages.ts';
import { PREPARE_ANYWAY } from '../../db/database.ts';
import { exactTotal, type ListTotals } from '../../db/list-totals.ts';
import type { Database, JsonValue } from '../../db/schema.ts';
import type { JournalFilter } from './journal.input.ts';
import type { JournalRow } from './journal-sentences.model.ts';
import { organizationActionsCopied } from './audit-backfill.repository.ts';
import { authorKnown, searchConditions } from './journal-search.repository.ts';

/** What the service resolved of a filter: the organization filtered on with its type, and the caller's scope. */
export interface JournalWhere extends Omit<JournalFilter, 'organizationId'> {
  organization?: { id: string; type: 'SIREN' | 'SIRET' } | undefined;
  /** The organizations where the caller holds USER_LIST; null: every entry (the back office). */
  scope: readonly string[] | null;
  /**
   * The caller, and the SIRENs whose SIRETs their scope covers (held with inheritsToChildren): which authors an
   * organization caller may know. Left out, they know only the system's and the back office's.
   */
  reader?: { userId: string; parentIds: readonly string[] } | undefined;
  /**
   * The search's rarest strings of three letters or digits (audit.model.ts searchNarrowing): the trigram index is asked for the
   * entries holding these only, and the whole term is checked on them. Left out, the index is asked for every
   * trigram of the term, and a full e-mail made it read the lists of its domain's and common words' trigrams, held
   * by millions of entries (1.4 s for 11 entries of a 10-million-entry journal).
   */
  searchGrams?: readonly string[] | undefined;
}


/** The newest-first key of an entry: the export reads the entries after it. */
export interface JournalKey {
  at: Date;
  id: number;
}

/**
 * `walk`: the page is read newest first along the time index (many matches); the search is then written so that
 * its trigram index cannot serve it (`search_text || ''`), else the planner, misjudging how many entries a term
 * matches, would read all 1.2 million entries of 'martin' by that index and sort them.
 */
function matching(eb: ExpressionBuilder<Database, 'audit_log'>, where: JournalWhere, walk = false) {
  const conditions = [];
  if (where.scope !== null) {
    conditions.push(sql<SqlBool>`exists (select 1 from audit_log_organizations s where s.audit_id = audit_log.id and s.organization_id = any(${[...where.scope]}::uuid[]))`);
  }
  if (where.organization?.type === 'SIREN') {
    conditions.push(sql<SqlBool>`exists (select 1 from audit_log_organizations f where f.audit_id = audit_log.id and f.siren_id = ${where.organization.id})`);
  } else if (where.organization) {
    conditions.push(sql<SqlBool>`exists (select 1 from audit_log_organizations f where f.audit_id = audit_log.id and f.organization_id = ${where.organization.id})`);
  }
  if (where.userId) conditions.push(eb('entity_type', '=', 'user'), eb('entity_id', '=', where.userId));
  if (where.actorId) {
    conditions.push(eb('actor_id', '=', where.actorId));
    if (where.scope !== null) conditions.push(authorKnown({ ...where, scope: where.scope }));
  }
  if (where.actions && where.actions.length > 0) conditions.push(eb('action', 'in', [...where.actions]));
  if (where.since) conditions.push(eb('at', '>=', where.since));
  if (where.until) conditions.push(eb('at', '<', where.until));
  if (where.search) conditions.push(...searchConditions({ ...where, search: where.search }, walk));
  return eb.and(conditions);
}

/** Nothing filters: the whole journal, as the back office reads it. */
export const isUnfiltered = (where: JournalWhere) =>
  where.scope === null && !where.organization && !where.userId && !where.actorId && !(where.actions && where.actions.length > 0) && !where.since && !where.until && !where.search;

/** A scope or an organization, alone, with at most actions and a period. */
const organizationsAnswer = (where: JournalWhere) => !where.userId && !where.actorId && !where.search && (where.scope === null) !== !where.organization;

/** Whether the actions' copy must be asked about: only when it could answer (one short read). */
const actionsCopiedFor = async (db: Kysely<Database>, where: JournalWhere) =>
  organizationsAnswer(where) && where.actions !== undefined && where.actions.length > 0 && (await organizationActionsCopied(db));

/**
 * When only organizations filter (the caller's scope alone, or one organization alone) with at most a period, and
 * actions once their copy there is whole (`actionsCopied`, migration 0028), the entries' organizations answer by
 * themselves, from their index alone (audit_log_organizations holds each entry's time and action): no entry is
 * read to find the page or the total.
 */
function byOrganizationsOnly(db: Kysely<Database>, where: JournalWhere, actionsCopied: boolean) {
  if (!organizationsAnswer(where)) return null;
  const actions = where.actions && where.actions.length > 0 ? where.actions : null;
  if (actions && !actionsCopied) return null;
  let query = db.selectFrom('audit_log_organizations');
  if (where.organization?.type === 'SIREN') query = query.where('siren_id', '=', where.organization.id);
  else if (where.organization) query = query.where('organization_id', '=', where.organization.id);
  else query = query.where(sql<SqlBool>`organization_id = any(${[...where.scope!]}::uuid[])`);
  if (actions) query = query.where('action', 'in', [...actions]);
  if (where.since) query = query.where('at', '>=', where.since);
  if (where.until) query = query.where('at', '<', where.until);
  // An entry concerning two organizations kept has two rows: grouped, it counts once.
  return query.select(['audit_id', 'at']).groupBy(['at', 'audit_id']);
}

/** The entries a filter keeps, before selecting anything (tests EXPLAIN it). */
export function auditEntriesMatching(db: Kysely<Database>, where: JournalWhere, walk = false) {
  return db.selectFrom('audit_log').where((eb) => matching(eb, where, walk));
}

const COLUMNS = ['id', 'at', 'actor_id', 'actor_email', 'actor_name', 'action', 'entity_type', 'entity_id', 'organization_id', 'subject_name', 'changes'] as const;

function toRow(row: {
  id: number;
  at: Date;
  actor_id: string | null;
  actor_email: string | null;
  actor_name: string | null;
  action: JournalRow['action'];
  entity_type: JournalRow['entityType'];
  entity_id: string;
  organization_id: string | null;
  subject_name: string | null;
  changes: JsonValue;
}): JournalRow {
  return {
    id: Number(row.id),
    at: row.at,
    actorId: row.actor_id,
    actorEmail: row.actor_email,
    actorName: row.actor_name,
    action: row.action,
    entityType: row.entity_type,
    entityId: row.entity_id,
    organizationId: row.organization_id,
    subjectName: row.subject_name,
    changes: row.changes !== null && typeof row.changes === 'object' && !Array.isArray(row.changes) ? row.changes : {},
    organizationIds: row.organization_id ? [row.organization_id] : [],
  };
}

/** How many entries the journal holds, every one: its counters (migration 0013, audit_counts). */
export async function countEveryJournalEntry(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ total: string | number }>`select coalesce(sum(n), 0)::bigint as total from audit_counts`.execute(db);
  return Number(rows[0]?.total ?? 0);
}

/** The exact number of entries kept: the counters when nothing filters, else counted (kept while the journal does not change). */
export async function countJournalEntries(db: Kysely<Database>, where: JournalWhere, totals: ListTotals | null): Promise<number> {
  if (isUnfiltered(where)) return countEveryJournalEntry(db);
  const concerned = byOrganizationsOnly(db, where, await actionsCopiedFor(db, where));
  const count = concerned
    ? db.selectFrom(concerned.as('c')).select((eb) => eb.fn.countAll<number>().as('total'))
    : auditEntriesMatching(db, where).select((eb) => eb.fn.countAll<number>().as('total'));
  return exactTotal(db, 'journal', count, totals);
}

/** Below this many matches a scope alone is gathered (audit.model.ts gathersPage): its matches are read from the organizations' index alone (a few ms for 10,000). */
export const GATHER_SCOPE_BELOW = 50_000;

/**
 * From this offset, a page of the whole journal seeks its hour first (migrations 0017, 0037): the days' counts,
 * summed newest first, tell which day holds the page's first entry and how many entries come before that day; that
 * day's hours, the same way, which hour; and the time index is read from the end of that hour, skipping only within
 * it (at most an hour's entries; within a day, half of one on average: 11,800 for page 372,172 of the 10M journal).
 */
export const SEEK_DAY_FROM = 10_000;

/**
 * Prepared (database.ts PREPARE_ANYWAY): whatever the page, the plan is the same, once the page's size is a literal.
 * With the size a parameter, the generic plan expected a tenth of the journal from the seek, and joined it to every
 * entry (3 s); with it written in, the plan PostgreSQL keeps is the one it makes for each page (0.29 ms, no planning).
 */
export function idsSeekingTheHour(offset: number, size: number) {
  return sql<{ id: number }>`${sql.raw(PREPARE_ANYWAY)} select a.id from (
      select day, upto - n as before from (
        select day, n, sum(n) over (order by day desc) as upto from (select day, sum(n) as n from audit_day_counts group by day) as days
      ) as running where upto > ${offset} order by day desc limit 1
    ) as d cross join lateral (
      select hour, d.before + upto - n as before from (
        select hour, n, sum(n) over (order by hour desc) as upto from (
          select hour, sum(n) as n from audit_hour_counts where hour >= d.day and hour < d.day + 1 group by hour) as hours
      ) as running where d.before + upto > ${offset} order by hour desc limit 1
    ) as h cross join lateral (
      select id from audit_log where at < (h.hour + interval '1 hour') at time zone 'UTC'
      order by at desc, id desc offset (${offset} - h.before) limit ${sql.lit(size)}
    ) as a`;
}

/**
 * A page of ids: its size written into the statement and no OFFSET on page 1, so that page 1 of a filter is prepared
 * once per connection (server/db/database.ts preparedName: a parameter as LIMIT, or any OFFSET, is parsed and planned
 * at each call; for the journal's page 1 that was most of the database's work, with its lookups' statement).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type IdsQuery<O> = SelectQueryBuilder<Database, any, O>;
function slice<O>(query: IdsQuery<O>, page: PageRequest, prepared = true): IdsQuery<O> {
  const limited = query.limit(prepared ? sql.lit(page.pageSize) : page.pageSize);
  return pageOffset(page) > 0 ? limited.offset(pageOffset(page)) : limited;
}

/** Several actions and at most a period, over the whole journal (the back office): see idsMergedByAction. */
const byActionsAlone = (where: JournalWhere) =>
  where.actions !== undefined && where.actions.length > 1 && where.scope === null && !where.organization && !where.userId && !where.actorId && !where.search;

/**
 * A page of several actions: each action's entries read newest first from the (action, at, id) index, up to the
 * page's end, then merged. Read along the time index instead, the actions asked for would be found only after
 * every newer entry of the others (52 ms behind 36,000 expiries on the benchmark database; 0.07 ms merged).
 */
function idsMergedByAction(db: Kysely<Database>, where: JournalWhere, page: PageRequest) {
  const reach = pageOffset(page) + page.pageSize;
  const arms = where.actions!.map((action, i) =>
    db.selectFrom(auditEntriesMatching(db, { ...where, actions: [action] }).select(['id', 'at']).orderBy('at', 'desc').orderBy('id', 'desc').limit(sql.lit(reach)).as(`a${i}`)).select(['id', 'at']),
  );
  const merged = arms.slice(1).reduce((union, arm) => union.unionAll(arm), arms[0]!);
  return slice(db.selectFrom(merged.as('m')).select('m.id').orderBy('m.at', 'desc').orderBy('m.id', 'desc'), page);
}

/**
 * One page, newest first (ties by id, so pages never overlap): the page's ids first, read from an index alone where
 * the filters allow (a deep page skips index entries, not rows), then their entries. `gather`: the total is small
 * (audit.model.ts gathersPage), so the matches are read whole by their filters (the OFFSET 0 keeps the planner from walking
 * the time index in search of them) and sorted.
 */
export async function listJournalPage(db: Kysely<Database>, where: JournalWhere, page: PageRequest, options: { gather?: boolean; total?: number; seekDayFrom?: number } = {}): Promise<JournalRow[]> {
  if (isUnfiltered(where) && pageOffset(page) >= (options.seekDayFrom ?? SEEK_DAY_FROM)) {
    const ids = idsSeekingTheHour(pageOffset(page), page.pageSize);
    const rows = await db.selectFrom('audit_log').select(COLUMNS).where('id', 'in', sql<number>`(${ids})`).orderBy('at', 'desc').orderBy('id', 'desc').execute();
    return rows.map(toRow);
  }
  const rows = await db.selectFrom('audit_log').select(COLUMNS).where('id', 'in', journalPageIds(db, where, page, { ...options, actionsCopied: await actionsCopiedFor(db, where) })).orderBy('at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toRow);
}

/**
 * One author, one person's history or one action, with at most a period, over the whole journal: an index holds its
 * entries newest first (audit_log_actor_at_idx, audit_log_entity_at_idx, audit_log_action_at_idx), so a page walks
 * it, however few its entries. Gathered, each of the 10M journal's authors (4,300 to 4,800 entries) had every entry
 * read and sorted for each page: 0.5 ms, against 0.05 walked.
 */
function inItsOwnIndex(where: JournalWhere) {
  const actions = where.actions?.length ?? 0;
  const keys = [Boolean(where.actorId), Boolean(where.userId), actions > 0].filter(Boolean).length;
  return where.scope === null && !where.organization && !where.search && keys === 1 && actions <= 1;
}

/** Up to this many entries per organization (the page's end), a scope's page is merged from each organization's index. */
export const MERGE_SCOPE_UP_TO = 1_000;

/**
 * A page of a scope alone (an organization caller's journal), with at most one action (once copied) and a period:
 * each organization's entries read newest first from its own index, up to the page's end, then merged, an entry
 * concerning two of them once. Gathering the scope's every entry to sort them read 6,501 for the clinic's page 1
 * on the 10M journal (4.2 ms a request, most of the database's work); merged, 50 (0.26 ms).
 */
function idsMergedByOrganization(where: JournalWhere & { scope: readonly string[] }, page: PageRequest) {
  const reach = pageOffset(page) + page.pageSize;
  const action = where.actions?.length === 1 ? sql`and o.action = ${where.actions[0]}` : sql``;
  const since = where.since ? sql`and o.at >= ${where.since}` : sql``;
  const until = where.until ? sql`and o.at < ${where.until}` : sql``;
  const offset = pageOffset(page) > 0 ? sql` offset ${pageOffset(page)}` : sql``;
  return sql<{ id: number }>`(select m.audit_id as id from (
      select x.audit_id, x.at from unnest(${[...where.scope]}::uuid[]) as s (id) cross join lateral (
        select o.audit_id, o.at from audit_log_organizations o where o.organization_id = s.id ${action} ${since} ${until}
        order by o.at desc, o.audit_id desc limit ${sql.lit(reach)}) as x
    ) as m group by m.at, m.audit_id order by m.at desc, m.audit_id desc limit ${sql.lit(page.pageSize)}${offset})`;
}

/** The ids of a page, by the cheapest access the filters allow (see listJournalPage; tests EXPLAIN it). */
export function journalPageIds(db: Kysely<Database>, where: JournalWhere, page: PageRequest, options: { gather?: boolean; total?: number; actionsCopied?: boolean }) {
  const concerned = byOrganizationsOnly(db, where, options.actionsCopied ?? false);
  // `concerned` holds actions only once they are copied beside the organizations; one at most merges by index.
  if (concerned && where.scope !== null && (where.actions?.length ?? 0) <= 1 && pageOffset(page) + page.pageSize <= MERGE_SCOPE_UP_TO) {
    return db.selectFrom(idsMergedByOrganization({ ...where, scope: where.scope }, page).as('merged')).select('merged.id');
  }
  // Several actions: planned each time (a parameter as LIMIT). Which access is best depends on how many entries the
  // actions hold, and a generic plan made from common ones walked a whole organization's entries for a rare one.
  const prepared = !(where.actions !== undefined && where.actions.length > 1);
  // One organization: its index reads newest first; a scope of several: gathered (up to GATHER_SCOPE_BELOW) or walked.
  if (concerned && (where.organization || options.gather || (options.total !== undefined && options.total <= GATHER_SCOPE_BELOW))) {
    return slice(concerned.clearSelect().select('audit_id as id').orderBy('at', 'desc').orderBy('audit_id', 'desc'), page, prepared);
  }
  if (options.gather && !inItsOwnIndex(where)) {
    return slice(db.selectFrom(auditEntriesMatching(db, where).select(['id', 'at']).offset(0).as('m')).select('m.id').orderBy('m.at', 'desc').orderBy('m.id', 'desc'), page, prepared);
  }
  if (byActionsAlone(where)) return idsMergedByAction(db, where, page);
  return slice(auditEntriesMatching(db, where, true).select('id').orderBy('at', 'desc').orderBy('id', 'desc'), page, prepared);
}

/**
 * The next `size` entries after `after` (none: from the newest), newest first: the export's keyset batches.
 * `gather`: few matches (see listJournalPage), read whole by their filters' indexes, then the batch taken from them.
 */
export async function journalBatchAfter(db: Kysely<Database>, where: JournalWhere, after: JournalKey | null, size: number, options: { gather?: boolean } = {}): Promise<JournalRow[]> {
  const older = (query: ReturnType<typeof auditEntriesMatching>) => (after ? query.where(sql<SqlBool>`(at, id) < (${after.at}, ${after.id})`) : query);
  const ids = options.gather && !inItsOwnIndex(where)
    ? db.selectFrom(older(auditEntriesMatching(db, where)).select(['id', 'at']).offset(0).as('m')).select('m.id').orderBy('m.at', 'desc').orderBy('m.id', 'desc').limit(size)
    : older(auditEntriesMatching(db, where, true)).select('id').orderBy('at', 'desc').orderBy('id', 'desc').limit(size);
  const rows = await db.selectFrom('audit_log').select(COLUMNS).where('id', 'in', ids).orderBy('at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toRow);
}
