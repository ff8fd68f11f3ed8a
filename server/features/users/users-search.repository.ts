// The users' search (issue 20): a substring of the full name or of the e-mail, case and accents ignored, read from
// user_search (migrations 0004, 0019: the folded name and e-mail of every user, kept by triggers); the total of a
// term of one to three characters from the counts of migration 0019; and the way a page's matches are found,
// chosen from that exact total rather than from the planner's estimate of a LIKE.
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { fromNearerEnd, walkOrFetch } from '../../core/pages.ts';
import { COUNTED_GRAM_LENGTH, isIndexedGram, searchFold } from '../../core/search-fold.ts';
import { exactTotal, keptTotalAt, type ListTotals } from '../../db/list-totals.ts';
import { containsPattern, escapeLike } from '../../db/like.ts';
import type { Database } from '../../db/schema.ts';
import { idOrder, orderByKey, searchSortKey, sortKey, type SortOrder } from './users-sort.repository.ts';
import { heldWords, lastLoginPage, mergedPage, wordsTotal, type HeldKind } from './users-search-words.repository.ts';
import { searchTexts, walkAtMost, wordsPageWay } from './users-search-words.model.ts';


/** A term as the search compares it: folded, and as typed in lower case (see searchCondition). */
export interface SearchTerm {
  folded: string;
  lowered: string;
}

/** The term composed first (NFC): 'e' + U+0301, as some sources paste it, is looked for as 'é' (as names are usually written). */
export function searchTerm(search: string): SearchTerm {
  const composed = search.normalize('NFC');
  return { folded: searchFold(composed), lowered: composed.toLowerCase() };
}

/** Whether the term's total comes from the counts kept by triggers (once the backfill of migration 0019 is through). */
export const isCountedTerm = (term: SearchTerm) => [...term.folded].length <= COUNTED_GRAM_LENGTH;

/** Whether a trigram (or, for an address, the e-mail parts) index finds the term's rows: three characters or more. */
const isIndexedTerm = (term: SearchTerm) => [...term.folded].length >= 3;

/**
 * The term in the folded name or e-mail of `s` (a user_search row). A term written with accents is looked for as
 * typed too, for the rows the backfill of migration 0019 has not folded yet (afterwards it finds nothing more).
 * When the term holds an '@' with text on both sides, the e-mail through the prefixes of the e-mail parts index
 * (migration 0004): in an address with one '@', the text before the term's '@' ends the local part and the text
 * after it starts the domain; and a full name holds such a term only if it holds an '@' (the name-has-@ index).
 * Addresses with several '@' keep the trigram search.
 */
export function searchCondition(term: SearchTerm, s: RawBuilder<unknown> = sql.raw('s')): Expression<SqlBool> {
  const forms = term.lowered === term.folded ? [term.folded] : [term.folded, term.lowered];
  return sql<SqlBool>`(${sql.join(forms.map((form) => oneForm(form, s)), sql` or `)})`;
}

function oneForm(text: string, s: RawBuilder<unknown>): RawBuilder<SqlBool> {
  const pattern = `%${escapeLike(text)}%`;
  const at = text.indexOf('@');
  const before = at > 0 ? text.slice(0, at) : '';
  const after = at >= 0 ? text.slice(at + 1) : '';
  if (!before || !after) return sql<SqlBool>`${s}.name like ${pattern} or ${s}.email like ${pattern}`;
  const endOfLocalPart = `${escapeLike([...before].reverse().join(''))}%`;
  const startOfDomain = `${escapeLike(after)}%`;
  return sql<SqlBool>`(strpos(${s}.name, '@') > 0 and ${s}.name like ${pattern})
    or (reverse(split_part(${s}.email, '@', 1)) like ${endOfLocalPart} and split_part(${s}.email, '@', 2) like ${startOfDomain}
        and ${s}.email not like '%@%@%')
    or (${s}.email like '%@%@%' and ${s}.email like ${pattern})`;
}

/** Which users a search alone counts: active ones unless `includeInactive`, the caller left out when given. */
export interface SearchScope {
  includeInactive: boolean;
  excludeUserId?: string;
}

/**
 * The number of users the term finds, in one expression: for a term of one to three characters, once the backfill
 * of migration 0019 is through, the sum of its counts' rows (a few rows, whatever the number of users), less the
 * caller when left out and found; otherwise a count of user_search.
 */
export function searchTotal(term: SearchTerm, scope: SearchScope): RawBuilder<number> {
  const condition = searchCondition(term);
  const counted = sql<number>`(select count(*) from user_search as s
    where (s.is_active or ${scope.includeInactive}) and ${condition}
    ${scope.excludeUserId ? sql`and s.id <> ${scope.excludeUserId}` : sql``})`;
  if (!isCountedTerm(term)) return counted;
  const self = scope.excludeUserId
    ? sql`(select count(*) from user_search as s where s.id = ${scope.excludeUserId} and (s.is_active or ${scope.includeInactive}) and ${condition})`
    : sql`0`;
  return sql<number>`(case when (select done from user_search_backfill)
    then ${gramTotal(sql`${term.folded}`, scope.includeInactive)} - ${self}
    else ${counted} end)`;
}

/** How many users (active ones only unless `includeInactive`) hold a string of one to three characters: everyone's count, less the inactive ones'. */
function gramTotal(gram: RawBuilder<unknown>, includeInactive: boolean): RawBuilder<number> {
  return sql<number>`(select coalesce(sum(case when not g.inactive_only then g.n when ${includeInactive} then 0 else -g.n end), 0)
    from user_search_gram_counts as g where g.gram = ${gram})`;
}

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

/** A page of a search alone: the term, who is counted, the order, and how many users the list holds (asked for when needed). */
export interface SearchPageQuery extends SearchScope, SortOrder {
  term: SearchTerm;
  offset: number;
  pageSize: number;
  everyone: () => Promise<number>;
}

/** A search's total, and its page: the ids, or a subquery of them that the list reads its rows from in the same statement. */
export type SearchFound = { total: number; ids: string[] } | { total: number; page: RawBuilder<{ id: string }> };

/**
 * The total and the page's ids of a search alone. A term of four characters or more that at most
 * FETCH_ALL_AT_MOST users hold (most terms) is looked for whole, in one statement that counts its matches and sorts
 * the page out of them; one that none holds answers at once. A term with more, or of one to three characters
 * (counted from migration 0019's counts), has its total counted (and kept while the data stays: list-totals.ts),
 * and its page found as pageAccess decides. Until the backfill is through, the whole look is tried up to
 * FETCH_ALL_BELOW matches first.
 */
export async function searchPage(db: Kysely<Database>, query: SearchPageQuery, totals: ListTotals | null, forced?: 'walk' | 'fetch' | 'words'): Promise<SearchFound> {
  if (forced !== 'walk' && forced !== 'fetch') {
    const found = await wordsSearchPage(db, query, totals, forced === 'words');
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
async function fetchPage(db: Kysely<Database>, query: SearchPageQuery, cap: number | null, rarest: readonly string[] = []): Promise<{ matches: number; ids: string[] }> {
  const narrowed = rarest.length > 0 && !query.term.folded.includes('@');
  const rows_ = narrowed
    ? sql`(select s.id, s.name, s.email, s.is_active, s.folded, s.name_key, s.email_key, s.last_login_at from user_search as s
          where ${sql.join(rarest.map((gram) => sql`(s.name like ${`%${escapeLike(gram)}%`} or s.email like ${`%${escapeLike(gram)}%`})`), sql` and `)}
          offset 0) as s`
    : sql`user_search as s`;
  const { rows } = await sql<{ matches: number; ids: string[] }>`
    with m as (
      select s.id, ${searchSortKey(query)} as k from ${rows_}
      where ${searchCondition(query.term)} and (s.is_active or ${query.includeInactive})
        ${query.excludeUserId ? sql`and s.id <> ${query.excludeUserId}` : sql``}
      ${cap === null ? sql`` : sql`limit ${sql.lit(cap + 1)}`})
    select (select count(*) from m) as matches,
           array(select m.id from m order by ${orderByKey(query)} limit ${sql.lit(query.pageSize)} offset ${sql.lit(query.offset)}) as ids`.execute(db);
  return { matches: Number(rows[0]!.matches), ids: rows[0]!.ids };
}


/**
 * A search found through the users' words or phrases (migration 0039, searchTexts), or null where they do not serve:
 * until every user's words are written; a term with an '@' between two characters (the e-mail parts index finds it at
 * once); a term of separators only.
 */
async function wordsSearchPage(db: Kysely<Database>, query: SearchPageQuery, totals: ListTotals | null, onlyWords: boolean): Promise<SearchFound | null> {
  const kind = searchTexts(query.term.folded);
  return kind ? textsPage(db, query, kind, totals, onlyWords) : null;
}

/**
 * A term found whole in the users' words or phrases (see wordsSearchPage): its total from the counts of its strings
 * (one to three characters) or of its texts; its page from the texts' indexes in the list's order, or by walking the
 * list when that reads several times fewer rows (a short and common word: wordsPageWay); `onlyWords` (tests): never walked.
 */
async function textsPage(db: Kysely<Database>, query: SearchPageQuery, kind: HeldKind, totals: ListTotals | null, onlyWords: boolean): Promise<SearchFound | null> {
  let total: number | null = null;
  if (isCountedTerm(query.term)) {
    total = await exactTotal(db, 'users', db.selectNoFrom(searchTotal(query.term, query).as('total')), totals);
    if (total === 0 || query.offset >= total) return { total, ids: [] };
    if (!onlyWords && kind === 'words' && ((query.offset + query.pageSize) * (await query.everyone())) / total <= walkAtMost(query.term.folded)) return { total, ids: await walkPage(db, fromNearerEnd(query, total)) };
  }
  const held = await heldWords(db, [containsPattern(query.term.folded)], kind, query.includeInactive);
  if (!held) return null;
  const found = held.held[0]!;
  const texts = found.map((w) => w.word);
  const count = () => wordsTotal(db, texts, query);
  total ??=
    found.length === 0 ? 0
    : found.length === 1 && !query.excludeUserId ? found[0]!.n
    : (keptTotalAt('users', count(), totals, held.version) ?? (await exactTotal(db, 'users', count(), totals)));
  if (total === 0 || query.offset >= total) return { total, ids: [] };
  const page = { sort: query.sort, words: found, phrases: kind === 'phrases', total, offset: query.offset, pageSize: query.pageSize };
  // The list's size is asked for only if a walk could be chosen at all: with everyone = total it reads the fewest rows it ever could.
  const mayWalk = !onlyWords && wordsPageWay({ ...page, everyone: total }) === 'walk';
  const way = wordsPageWay({ ...page, everyone: mayWalk ? await query.everyone() : Number.POSITIVE_INFINITY });
  if (way === 'walk') return { total, ids: await walkPage(db, fromNearerEnd(query, total)) };
  if (way === 'fetch') return { total, ids: await lastLoginPage(db, texts, query) };
  return { total, page: mergedPage(texts, fromNearerEnd(query, total)) };
}

/** The page's ids by walking the sort's index on users, each user looked up in user_search (a scalar subquery: never a join reading every match). */
async function walkPage(db: Kysely<Database>, query: SearchPageQuery & { reversed: boolean }): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    select users.id from users
    where (users.is_active or ${query.includeInactive}) ${query.excludeUserId ? sql`and users.id <> ${query.excludeUserId}` : sql``}
      and coalesce((select ${searchCondition(query.term)} from user_search as s where s.id = users.id), false)
    order by ${sortKey(query, query.reversed)}, ${idOrder(query, query.reversed)}
    limit ${sql.lit(query.pageSize)} offset ${sql.lit(query.offset)}`.execute(db);
  const ids = rows.map((r) => r.id);
  return query.reversed ? ids.reverse() : ids;
}
