// The organizations' list (OpenAPI OrganizationList: the SIREN and SIRET comboboxes, 100 a page), issue 20:
// - its total: the counters of migration 0020 without a search, parent or scope, and for a term of one to three
//   characters; else counted and kept while the organizations stay the same (list-totals.ts, list 'organizations');
// - a search reads organization_search (the folded names, migration 0020): accents and case ignored on names,
//   spaces ignored in a code. Its page is taken from every match when they are few (the trigram indexes), else by
//   walking the code order until a page of matches (pageAccess): a rare term never walks the order;
// - a search's total and the ids of its pages read at one version of the organizations are kept (ListTotals.outlooks,
//   keptSearch): the same search again reads the rows of those ids in one statement, with the version, used only if
//   it is still the one they were read at.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { fromNearerEnd, pageOffset, walkOrFetch, type PageRequest } from '../../core/pages.ts';
import { searchFold } from '../../core/search-fold.ts';
import { exactTotal, keptTotal, listsVersion, type ListTotals } from '../../db/list-totals.ts';
import type { Database, OrganizationRow, OrganizationType } from '../../db/schema.ts';
import { containsPattern } from '../../db/like.ts';
import { toOrganizationDto, type OrganizationDto, type OrganizationFilter } from './organizations.repository.ts';

/** Below this total, a page of a search is always taken from all its matches. */
export const FETCH_ALL_BELOW = 5_000;

/** Trigrams serve a substring of three characters or more. */
const TRIGRAM = 3;

/** The two sides of a search: the folded name's substring, and the code's (spaces dropped when it is only digits and spaces). */
export interface OrganizationTerm {
  name: string;
  code: string;
}

export function organizationTerm(search: string): OrganizationTerm {
  const trimmed = search.trim();
  return { name: searchFold(trimmed), code: /^[\d\s]+$/.test(trimmed) ? trimmed.replace(/\s+/g, '') : trimmed };
}

/**
 * Whether the total is read from the counts of strings of one to three characters (migration 0020): the folded name
 * is such a string, and the code's side is the same string or cannot match (a code holds only digits).
 */
export function isCountedTerm(term: OrganizationTerm): boolean {
  return [...term.name].length <= TRIGRAM && (term.name === term.code || /\D/.test(term.code));
}

/** Whether both sides are served by the trigram indexes. */
export function isIndexedTerm(term: OrganizationTerm): boolean {
  return [...term.name].length >= TRIGRAM && [...term.code].length >= TRIGRAM;
}

/**
 * How a page of a search is found, from its exact total: 'fetch' every match (through the trigram indexes, or reading
 * every row for a term of one or two characters) then sort out the page; or 'walk' the code order until the page's
 * last match, about (offset + page size) × everyone ÷ total rows when the matches are spread along the codes. Pure.
 */
export function pageAccess(input: { term: OrganizationTerm; total: number; everyone: number; offset: number; pageSize: number; narrow: boolean }): 'fetch' | 'walk' {
  const { term, narrow, ...rest } = input;
  // A parent or a scope keeps a few organizations, read through their own index.
  if (narrow) return 'fetch';
  return walkOrFetch({ ...rest, indexed: isIndexedTerm(term), fetchAllBelow: FETCH_ALL_BELOW });
}

/**
 * Where a walk starts: a page in the second half of the matches is read from the other end of the code order, the
 * same rows past fewer (the last page is the first one read backwards). Pure.
 */
export function nearerEnd(offset: number, pageSize: number, total: number): { offset: number; limit: number; reversed: boolean } {
  const near = fromNearerEnd({ offset, pageSize }, total);
  return { offset: near.offset, limit: near.pageSize, reversed: near.reversed };
}

/** An organization's type as written in a statement: one of the two, never anything else. */
function typeLiteral(type: OrganizationType): 'SIREN' | 'SIRET' {
  switch (type) {
    case 'SIREN':
      return 'SIREN';
    case 'SIRET':
      return 'SIRET';
    default:
      throw new Error(`unknown organization type: ${String(type satisfies never)}`);
  }
}

/** The filters other than the search, on the rows of `t` (organizations or organization_search: the same columns). */
function filtersOf(filter: OrganizationFilter): RawBuilder<boolean> {
  const conditions: RawBuilder<boolean>[] = [];
  if (filter.visibility.kind === 'scope') {
    const ids = filter.visibility.organizationIds;
    conditions.push(ids.length === 0 ? sql<boolean>`false` : sql<boolean>`t.id in (${sql.join(ids)})`);
  }
  if (filter.parentId) conditions.push(sql<boolean>`t.parent_id = ${filter.parentId}`);
  // Written in (a type is one of two words): a plan made for any type could not use the SIRENs' own name index (0043).
  if (filter.type) conditions.push(sql<boolean>`t.type = ${sql.lit(typeLiteral(filter.type))}`);
  if (filter.forNewAccess) conditions.push(sql<boolean>`t.member`);
  return conditions.length === 0 ? sql<boolean>`true` : sql<boolean>`(${sql.join(conditions, sql` and `)})`;
}

/** The search on organization_search: LIKE (the trigram indexes can serve it), or strpos (they cannot: the walk keeps to the code order). */
function searchCondition(term: OrganizationTerm, form: 'like' | 'strpos'): RawBuilder<boolean> {
  return form === 'like'
    ? sql<boolean>`(t.name like ${containsPattern(term.name)} or t.code like ${containsPattern(term.code)})`
    : sql<boolean>`(strpos(t.name, ${term.name}) > 0 or strpos(t.code, ${term.code}) > 0)`;
}

/**
 * The organizations a filter keeps, counted. A term the trigrams cannot serve is tested by strpos: the count is
 * prepared (list-totals.ts), and a plan made for any LIKE pattern read the whole trigram index for two letters (140 ms).
 */
export function countMatching(filter: OrganizationFilter): RawBuilder<number> {
  const search = filter.search?.trim();
  if (!search) return sql<number>`(select count(*) from organizations as t where ${filtersOf(filter)})`;
  const term = organizationTerm(search);
  return sql<number>`(select count(*) from organization_search as t where ${filtersOf(filter)} and ${searchCondition(term, isIndexedTerm(term) ? 'like' : 'strpos')})`;
}

/** The number of organizations holding a string of one to three characters, of a type and members only when asked (migration 0020). */
function gramCount(gram: string, filter: OrganizationFilter): RawBuilder<number> {
  return sql<number>`(select coalesce(sum(c.n), 0)::bigint from organization_gram_counts as c where c.gram = ${gram}
    and (c.type = ${filter.type ?? null} or ${filter.type ?? null}::text is null) and (c.member or ${!filter.forNewAccess}))`;
}

/** The number of organizations of the counters (migration 0020), of a type and members only when asked. */
function counted(filter: OrganizationFilter): RawBuilder<number> {
  return sql<number>`(select coalesce(sum(c.n), 0)::bigint from organization_counts as c
    where (c.type = ${filter.type ?? null} or ${filter.type ?? null}::text is null) and (c.member or ${!filter.forNewAccess}))`;
}

const COLUMNS = sql`id, code, name, type, parent_code, parent_id, member, closed`;

/** A page's columns, and the organizations' version in the same snapshot (keptSearch). */
const PAGE_COLUMNS = sql`o.id, o.code, o.name, o.type, o.parent_code, o.parent_id, o.member, o.closed, (${listsVersion(['organizations'])})::float8 as list_version`;

/** A search kept: its exact total and the ids of its pages asked (by pageKey), all read at `version` of the organizations. */
interface KeptSearch {
  version: number;
  total: number;
  pages: Map<string, readonly string[]>;
}

/** The pages a kept search keeps, at most (the first asked). */
const KEPT_PAGES = 8;

const searchKey = (filter: OrganizationFilter, search: string) =>
  `organizations\u0000${JSON.stringify([search, filter.type ?? null, filter.forNewAccess ?? false, filter.parentId ?? null, filter.visibility])}`;
const pageKey = (offset: number, pageSize: number) => `${offset}\u0000${pageSize}`;

/** The organizations of these ids, in code order, with the organizations' version in the same snapshot. */
function rowsOfIds(db: Kysely<Database>, ids: readonly string[]) {
  return sql<OrganizationRow & { list_version: number }>`select ${PAGE_COLUMNS}
    from unnest(${[...ids]}::uuid[]) as p (id) join organizations as o on o.id = p.id order by o.code, o.id`.execute(db);
}

/** A search asked again: its page from the ids kept, if the organizations are still at the version they were read at; else undefined. */
async function keptSearch(db: Kysely<Database>, kept: KeptSearch | undefined, key: string): Promise<{ items: OrganizationDto[]; total: number } | undefined> {
  const ids = kept?.pages.get(key);
  if (!kept || !ids) return undefined;
  const { rows } = await rowsOfIds(db, ids);
  if (rows.length !== ids.length || rows[0]!.list_version !== kept.version) return undefined;
  return { items: rows.map(({ list_version: _, ...row }) => toOrganizationDto(row)), total: kept.total };
}

/** Keeps a search's page read at `version`, with its total when that was read at the same version. */
function keepSearch(totals: ListTotals | null, key: string, found: { total: number; version: number | null }, page: string, ids: readonly string[], version: number): void {
  if (!totals || found.version !== version || ids.length === 0) return;
  const kept = totals.outlooks.get(key) as KeptSearch | undefined;
  if (kept?.version === version) {
    if (kept.pages.size < KEPT_PAGES || kept.pages.has(page)) kept.pages.set(page, ids);
  } else {
    const search: KeptSearch = { version, total: found.total, pages: new Map([[page, ids]]) };
    totals.outlooks.set(key, search);
  }
}

/**
 * A page of organizations in code order (unique, hence stable), and the exact number of matching organizations: two
 * statements (three for a search that may walk); one for a search asked again while the organizations stay (keptSearch).
 */
export async function listOrganizations(
  db: Kysely<Database>,
  filter: OrganizationFilter,
  page: PageRequest,
  totals: ListTotals | null = null,
  /** A search's page access, instead of pageAccess's choice (tests compare the two). */
  forced?: 'fetch' | 'walk',
): Promise<{ items: OrganizationDto[]; total: number }> {
  const offset = pageOffset(page);
  const search = filter.search?.trim();
  if (!search) {
    const plain = filter.visibility.kind === 'all' && !filter.parentId;
    const [total, rows] = await Promise.all([
      plain ? db.selectNoFrom(counted(filter).as('total')).executeTakeFirstOrThrow().then((r) => Number(r.total)) : exactTotal(db, 'organizations', db.selectNoFrom(countMatching(filter).as('total')), totals),
      // The page's size written in, no OFFSET on page 1: prepared once per connection (CONTRIBUTING, 'A statement every request runs').
      sql<OrganizationRow>`select ${COLUMNS} from organizations as t where ${filtersOf(filter)} order by t.code, t.id limit ${sql.lit(page.pageSize)}${offset > 0 ? sql` offset ${offset}` : sql``}`.execute(db),
    ]);
    return { items: rows.rows.map(toOrganizationDto), total };
  }
  const key = searchKey(filter, search);
  const asked = pageKey(offset, page.pageSize);
  const again = forced ? undefined : await keptSearch(db, totals?.outlooks.get(key) as KeptSearch | undefined, asked);
  if (again) return again;
  const term = organizationTerm(search);
  const narrow = filter.visibility.kind === 'scope' || Boolean(filter.parentId);
  // The total, and the organizations' version it holds at (null: not known).
  const found: { total: number; version: number | null } = { total: 0, version: null };
  if (!narrow && isCountedTerm(term)) {
    const row = await db.selectNoFrom([gramCount(term.name, filter).as('total'), listsVersion(['organizations']).as('version')]).executeTakeFirstOrThrow();
    Object.assign(found, { total: Number(row.total), version: Number(row.version) });
  } else {
    const count = db.selectNoFrom(countMatching(filter).as('total'));
    found.total = await exactTotal(db, 'organizations', count, totals);
    const kept = keptTotal('organizations', count, totals);
    found.version = kept?.total === found.total ? kept.version : null;
  }
  const total = found.total;
  if (total === 0 || offset >= total) return { items: [], total };
  // The organizations of the type and membership asked (the counters), for the walk's estimate: read only when it may walk.
  const mayWalk = !forced && !narrow && (total >= FETCH_ALL_BELOW || !isIndexedTerm(term));
  const everyone = mayWalk ? Number((await db.selectNoFrom(counted(filter).as('n')).executeTakeFirstOrThrow()).n) : total;
  const near = nearerEnd(offset, page.pageSize, total);
  const access = forced ?? pageAccess({ term, total, everyone, offset: near.offset, pageSize: page.pageSize, narrow });
  const direction = sql.raw(near.reversed ? 'desc' : 'asc');
  const matches =
    access === 'fetch'
      ? sql`(with m as materialized (select t.id, t.code from organization_search as t where ${filtersOf(filter)} and ${searchCondition(term, 'like')})
             select m.id, m.code from m order by m.code, m.id limit ${page.pageSize} offset ${offset})`
      : sql`(select t.id, t.code from organization_search as t where ${filtersOf(filter)} and ${searchCondition(term, 'strpos')}
             order by t.code ${direction}, t.id ${direction} limit ${near.limit} offset ${near.offset})`;
  const rows = await sql<OrganizationRow & { list_version: number }>`select ${PAGE_COLUMNS}
    from ${matches} as p join organizations as o on o.id = p.id order by p.code, p.id`.execute(db);
  if (!forced && rows.rows.length > 0) keepSearch(totals, key, found, asked, rows.rows.map((row) => row.id), rows.rows[0]!.list_version);
  return { items: rows.rows.map(({ list_version: _, ...row }) => toOrganizationDto(row)), total };
}
