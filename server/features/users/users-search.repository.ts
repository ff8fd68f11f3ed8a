// The users' search (issue 20): a substring of the full name or of the e-mail, case and accents ignored, read from
// user_search (migrations 0004, 0019: the folded name and e-mail of every user, kept by triggers); the total of a
// term of one to three characters from the counts of migration 0019; and the way a page's matches are found,
// chosen from that exact total rather than from the planner's estimate of a LIKE.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { fromNearerEnd, walkOrFetch } from '../../core/pages.ts';
import { isIndexedGram } from '../../core/search-fold.ts';
import { exactTotal, listsVersion, type ListTotals } from '../../db/list-totals.ts';
import { escapeLike } from '../../db/like.ts';
import type { Database } from '../../db/schema.ts';
import { orderByKey, searchSortKey } from './users-sort.repository.ts';
import { gramTotal, holdsRole, isCountedTerm, isIndexedTerm, searchCondition, searchTotal, walkedPage, type SearchPageQuery, type SearchTerm } from './users-search-term.repository.ts';
import { textsPage, type SearchFound } from './users-search-texts.repository.ts';
import { searchTexts } from './users-search-words.model.ts';

export { isCountedTerm, searchCondition, searchTerm, searchTotal, type SearchPageQuery, type SearchScope, type SearchTerm } from './users-search-term.repository.ts';
export type { SearchFound } from './users-search-texts.repository.ts';


/** Below this total, a page is always taken from all the matches (see pageAccess). */
export const FETCH_ALL_BELOW = 20_000;

/**
 * A term that at most this many users can hold (outlookOf) is looked for whole: counting its matches and
 * sorting its page out of them is one reading of them, which its count alone would cost anyway.
 */
export const FETCH_ALL_AT_MOST = 40_000;

/** How a page of a search alone is found (walkOrFetch); a term under three characters has no index. */
export function pageAccess(input: { term: SearchTerm; total: number; everyone: number; offset: number; pageSize: number }): 'fetch' | 'walk' {
  const { term, ...rest } = input;
  return walkOrFetch({ ...rest, indexed: isIndexedTerm(term), fetchAllBelow: FETCH_ALL_BELOW });
}

/**
 * The total and the page (its ids, or their subquery) of a search alone. Once every user's words are written
 * (migration 0039), a term without an '@' between two characters is found through the words or phrases holding it
 * (users-search-texts.repository.ts), and one with such an '@' that few users can hold, whole (addressPage); `keptOutlook`
 * false, without what an earlier search of it kept. Otherwise, as before that migration: a term of four characters or more that at most FETCH_ALL_AT_MOST users hold is looked for
 * whole, in one statement that counts its matches and sorts the page out of them; one that none holds answers at
 * once. A term with more, or of one to three characters (counted from migration 0019's counts), has its total counted
 * (and kept while the data stays: list-totals.ts), and its page found as pageAccess decides. Until the backfill of
 * migration 0019 is through, the whole look is tried up to FETCH_ALL_BELOW matches first.
 */
export async function searchPage(
  db: Kysely<Database>,
  query: SearchPageQuery,
  totals: ListTotals | null,
  forced?: 'walk' | 'fetch' | 'words',
  { keptOutlook = true }: { keptOutlook?: boolean } = {},
): Promise<SearchFound> {
  if (forced !== 'walk' && forced !== 'fetch') {
    // Through the users' words or phrases (migration 0039), unless the term has an '@' between two characters (the
    // e-mail parts index finds it at once) or is separators only; null until every user's words are written.
    const kind = searchTexts(query.term.folded);
    const found = kind ? await textsPage(db, query, kind, totals, { onlyWords: forced === 'words', keptOutlook }) : null;
    if (found) return found;
  }
  if (!forced && INNER_AT.test(query.term.folded)) {
    const found = await addressPage(db, query, totals, keptOutlook);
    if (found) return found;
  }
  if (!forced && !isCountedTerm(query.term)) {
    const outlook = await outlookOf(db, query);
    if (outlook?.bound === 0) return { total: 0, ids: [] };
    // Few enough matches at most: all of them, counted and sorted, in one statement. Unknown: the same up to a cap.
    if (outlook && outlook.bound <= FETCH_ALL_AT_MOST) {
      const whole = await fetchPage(db, query, null, outlook.rarest);
      return { total: whole.matches, ids: whole.ids };
    }
    if (!outlook) {
      const whole = await fetchPage(db, query, FETCH_ALL_BELOW);
      if (whole.matches <= FETCH_ALL_BELOW) return { total: whole.matches, ids: whole.ids };
    }
  }
  const total = await exactTotal(db, 'users', db.selectNoFrom(searchTotal(query.term, query).as('total')), totals);
  if (total === 0 || query.offset >= total) return { total, ids: [] };
  const access = forced === 'walk' || forced === 'fetch' ? forced : pageAccess({ term: query.term, total, everyone: await query.everyone(), offset: query.offset, pageSize: query.pageSize });
  return { total, ids: access === 'fetch' ? (await fetchPage(db, query, null)).ids : await walkPage(db, fromNearerEnd(query, total)) };
}

/** An '@' with a character on each side: the e-mail parts index finds the term (searchCondition). */
const INNER_AT = /[^]@[^]/u;

/**
 * A term with an '@' between two characters that few users can hold (outlookOf): every match, counted and sorted, in
 * one statement with the users list's version. The total is kept at that version (ListTotals.outlooks), and a later
 * page or the same search again reads its page with its rows, checked by the users list against that version (as
 * users-search-texts.repository.ts's). Null for a term that many users may hold: counted and walked as any other.
 */
async function addressPage(db: Kysely<Database>, query: SearchPageQuery, totals: ListTotals | null, keptOutlook: boolean): Promise<SearchFound | null> {
  const key = `address\u0000${query.term.folded}\u0000${query.includeInactive}\u0000${query.excludeUserId ?? ''}\u0000${query.roleId ?? ''}`;
  const kept = keptOutlook ? (totals?.outlooks.get(key) as { version: number; total: number } | undefined) : undefined;
  if (kept && query.offset < kept.total) {
    const page = sql<{ id: string }>`(select m.id from (${matches(query, sql`user_search as s`)}) as m
      order by ${orderByKey(query)} limit ${sql.lit(query.pageSize)} offset ${sql.lit(query.offset)})`;
    return { total: kept.total, page, atVersion: kept.version };
  }
  const outlook = await outlookOf(db, query);
  if (outlook?.bound === 0) return { total: 0, ids: [] };
  if (!outlook || outlook.bound > FETCH_ALL_AT_MOST) return null;
  const whole = await fetchPage(db, query, null);
  const learnt = { version: whole.version, total: whole.matches };
  totals?.outlooks.set(key, learnt);
  return { total: whole.matches, ids: whole.ids };
}

/** What the counts of migration 0019 tell of a term of four characters or more, once the backfill is through. */
interface TermOutlook {
  /** At most how many users hold it: the count of its rarest string of three characters (0 when one is nowhere). */
  bound: number;
  /** Its two rarest strings of three letters or digits: the users holding both are the only ones to look at. */
  rarest: string[];
}

/**
 * The outlook of a term (null until the backfill is through: the counts are not whole yet), from a few rows per
 * string of three characters. It tells a common term from a rare one before reading any match.
 */
async function outlookOf(db: Kysely<Database>, query: SearchPageQuery): Promise<TermOutlook | null> {
  const counted = await peopleGramCounts(db, query.term.folded, query.includeInactive);
  if (!counted) return null;
  return { bound: counted[0]?.n ?? 0, rarest: [...new Set(counted.filter((c) => isIndexedGram(c.gram)).map((c) => c.gram))].slice(0, 2) };
}

/**
 * How many users (active ones only unless `includeInactive`) hold each string of three characters of `text`, with
 * where it starts in it, rarest first; null until the backfill of migration 0019 is through (the counts are not whole
 * yet). Names and e-mails being what people search for, it also tells which strings of a journal search are rare.
 */
export async function peopleGramCounts(db: Kysely<Database>, text: string, includeInactive: boolean): Promise<{ gram: string; at: number; n: number }[] | null> {
  const letters = [...text];
  const grams = letters.slice(0, -2).map((_, i) => letters.slice(i, i + 3).join(''));
  if (grams.length === 0) return [];
  const { rows } = await sql<{ done: boolean; gram: string; n: number | string }>`
    select (select done from user_search_backfill) as done, t.gram, ${gramTotal(sql`t.gram`, includeInactive)} as n
    from unnest(${[...new Set(grams)]}::text[]) as t (gram)`.execute(db);
  if (!rows[0]?.done) return null;
  const counts = new Map(rows.map((r) => [r.gram, Number(r.n)]));
  return grams.map((gram, at) => ({ gram, at, n: counts.get(gram) ?? 0 })).sort((a, b) => a.n - b.n || a.at - b.at);
}

/**
 * The matches (at most `cap` + 1 of them when given), counted, and the page's ids sorted out of them. With `rarest`
 * (a term without '@'), the trigram indexes are asked for the users holding those strings only, behind `offset 0`,
 * and the term is checked on them: a long term's every trigram, the most common ones included ('.fr', 'ehp'), made
 * the index read lists of hundreds of thousands of users for a domain that 29 hold.
 */
async function fetchPage(db: Kysely<Database>, query: SearchPageQuery, cap: number | null, rarest: readonly string[] = []): Promise<{ matches: number; ids: string[]; version: number }> {
  const narrowed = rarest.length > 0 && !query.term.folded.includes('@');
  const rows_ = narrowed
    ? sql`(select s.id, s.name, s.email, s.is_active, s.folded, s.name_key, s.email_key, s.last_login_at, s.roles from user_search as s
          where ${sql.join(rarest.map((gram) => sql`(s.name like ${`%${escapeLike(gram)}%`} or s.email like ${`%${escapeLike(gram)}%`})`), sql` and `)}
          offset 0) as s`
    : sql`user_search as s`;
  const { rows } = await sql<{ matches: number; ids: string[]; version: number }>`
    with m as (${matches(query, rows_)} ${cap === null ? sql`` : sql`limit ${sql.lit(cap + 1)}`})
    select (select count(*) from m) as matches,
           array(select m.id from m order by ${orderByKey(query)} limit ${sql.lit(query.pageSize)} offset ${sql.lit(query.offset)}) as ids,
           ${listsVersion(['users'])}::float8 as version`.execute(db);
  return { matches: Number(rows[0]!.matches), ids: rows[0]!.ids, version: Number(rows[0]!.version) };
}

/** The term's matches among the user_search rows of `source` (aliased `s`), with their sort key `k`: who a search alone counts (within its role, when it has one). */
function matches(query: SearchPageQuery, source: RawBuilder<unknown>): RawBuilder<{ id: string; k: unknown }> {
  return sql`select s.id, ${searchSortKey(query)} as k from ${source}
    where ${searchCondition(query.term)} and (s.is_active or ${query.includeInactive})${holdsRole(sql.raw('s'), query)} ${query.excludeUserId ? sql`and s.id <> ${query.excludeUserId}` : sql``}`;
}

/** The page's ids by walking the sort's index (walkedPage), in the list's order. */
async function walkPage(db: Kysely<Database>, query: SearchPageQuery & { reversed: boolean }): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`${walkedPage(query)}`.execute(db);
  const ids = rows.map((r) => r.id);
  return query.reversed ? ids.reverse() : ids;
}
