// The users' search's terms (issue 20): a term folded as the search compares it, the condition a user_search row
// meets when it holds the term, the exact total of a term (from the counts of its strings of one to three characters,
// migration 0019, or counted), and the walk of the list's own order that finds a common term's page.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { COUNTED_GRAM_LENGTH, searchFold } from '../../core/search-fold.ts';
import { PREPARE_ANYWAY } from '../../db/database.ts';
import { escapeLike } from '../../db/like.ts';
import { startsWith, unseenText } from '../../db/unseen.ts';
import { idOrder, sortKey, type SortOrder } from './users-sort.repository.ts';

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
export const isIndexedTerm = (term: SearchTerm) => [...term.folded].length >= 3;

/**
 * The term in the folded name or e-mail of `s` (a user_search row). A term written with accents is looked for as
 * typed too, for the rows the backfill of migration 0019 has not folded yet (afterwards it finds nothing more).
 * When the term holds an '@' with text on both sides, the e-mail through the prefixes of the e-mail parts index
 * (migration 0004): in an address with one '@', the text before the term's '@' ends the local part and the text
 * after it starts the domain; and a full name holds such a term only if it holds an '@' (the name-has-@ index).
 * Addresses with several '@' are read from their partial index (none in the benchmark's data): the term is looked
 * for there with strpos, which no trigram index answers, because a long address's trigrams would cost more (12 ms for
 * 'emilie.lamy@orange.fr' at 1M users, every trigram's entries read; 0.09 ms with the partial index). The address's
 * parts are ranges of their index, and every value of that form unseen by the planner (server/db/unseen.ts): its
 * statements are prepared and planned once per connection, where planning the page's statement for each address
 * searched was most of the database's work (1 to 2 ms a request, its execution 0.25 ms).
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
  const endOfLocalPart = [...before].reverse().join('');
  return sql<SqlBool>`${sql.raw(PREPARE_ANYWAY)} (strpos(${s}.name, '@') > 0 and ${s}.name like ${unseenText(pattern)})
    or (${startsWith(sql`reverse(split_part(${s}.email, '@', 1))`, endOfLocalPart)} and ${startsWith(sql`split_part(${s}.email, '@', 2)`, after)}
        and ${s}.email not like '%@%@%')
    or (${s}.email like '%@%@%' and strpos(${s}.email, ${unseenText(text)}) > 0)`;
}

/**
 * Which users a search alone counts: active ones unless `includeInactive`, the caller left out when given; with
 * `roleId`, only those holding that role (the list's 'Rôle' filter, once migration 0040's roles are written).
 */
export interface SearchScope {
  includeInactive: boolean;
  excludeUserId?: string;
  roleId?: number;
}

/** ` and ` the row `s` (user_search or user_search_words: both hold the user's roles, migration 0040) holds the scope's role, or nothing. */
export function holdsRole(s: RawBuilder<unknown>, scope: Pick<SearchScope, 'roleId'>): RawBuilder<unknown> {
  return scope.roleId === undefined ? sql`` : sql` and ${s}.roles @> array[${scope.roleId}::int]`;
}

/**
 * The number of users the term finds, in one expression: for a term of one to three characters, once the backfill
 * of migration 0019 is through, the sum of its counts' rows (a few rows, whatever the number of users), less the
 * caller when left out and found; otherwise a count of user_search.
 */
export function searchTotal(term: SearchTerm, scope: SearchScope): RawBuilder<number> {
  const condition = searchCondition(term);
  const s = sql.raw('s');
  const counted = sql<number>`(select count(*) from user_search as s
    where (s.is_active or ${scope.includeInactive}) and ${condition}${holdsRole(s, scope)}
    ${scope.excludeUserId ? sql`and s.id <> ${scope.excludeUserId}` : sql``})`;
  if (!isCountedTerm(term)) return counted;
  const self = scope.excludeUserId
    ? sql`(select count(*) from user_search as s where s.id = ${scope.excludeUserId} and (s.is_active or ${scope.includeInactive}) and ${condition}${holdsRole(s, scope)})`
    : sql`0`;
  return sql<number>`(case when (select done from user_search_backfill)
    then ${gramTotal(sql`${term.folded}`, scope.includeInactive, scope.roleId)} - ${self}
    else ${counted} end)`;
}

/**
 * The users a kept count's rows `alias` tell (the counts of migrations 0019, 0039 and 0040: every holder's rows, and the
 * inactive ones' apart): active ones only unless `includeInactive`.
 */
export function keptCount(alias: string, includeInactive: boolean): RawBuilder<number> {
  const c = sql.raw(alias);
  return sql<number>`sum(case when not ${c}.inactive_only then ${c}.n when ${includeInactive} then 0 else -${c}.n end)`;
}

/**
 * How many users (active ones only unless `includeInactive`) hold a string of one to three characters: everyone's
 * count, less the inactive ones'; with `roleId`, among the holders of that role (migration 0040).
 */
export function gramTotal(gram: RawBuilder<unknown>, includeInactive: boolean, roleId?: number): RawBuilder<number> {
  const n = sql`coalesce(${keptCount('g', includeInactive)}, 0)`;
  if (roleId !== undefined) return sql<number>`(select ${n} from user_search_gram_role_counts as g where g.gram = ${gram} and g.role_id = ${roleId})`;
  return sql<number>`(select ${n} from user_search_gram_counts as g where g.gram = ${gram})`;
}

/** A page of a search alone: the term, who is counted, the order, and how many users the list holds (asked for when needed). */
export interface SearchPageQuery extends SearchScope, SortOrder {
  term: SearchTerm;
  offset: number;
  pageSize: number;
  everyone: () => Promise<number>;
}

/**
 * The page's ids by walking the sort's index on users, each user looked up in user_search (a scalar subquery: never a
 * join reading every match), as a subquery; `reversed`, from the other end (the ids then come in the opposite order).
 * Prepared although it holds a LIKE: inside the scalar subquery the pattern weighs nothing in the plan (the walk of the
 * sort index), and the page's rows read in the same statement were otherwise planned at every page.
 */
export function walkedPage(query: SearchPageQuery & { reversed: boolean }): RawBuilder<{ id: string }> {
  return sql<{ id: string }>`(${sql.raw(PREPARE_ANYWAY)} select users.id from users
    where (users.is_active or ${query.includeInactive}) ${query.excludeUserId ? sql`and users.id <> ${query.excludeUserId}` : sql``}
      and coalesce((select ${searchCondition(query.term)}${holdsRole(sql.raw('s'), query)} from user_search as s where s.id = users.id), false)
    order by ${sortKey(query, query.reversed)}, ${idOrder(query, query.reversed)}
    limit ${sql.lit(query.pageSize)} offset ${sql.lit(query.offset)})`;
}
