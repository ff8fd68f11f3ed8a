// The statements of the users' search on their words and phrases (issue 20, migration 0039): the words or phrases
// holding a term, with how many users hold each; a term's exact total from their holders; a page read from their
// indexes in the list's name or e-mail order ('merge', a subquery); every match of a term sorted by last sign-in ('fetch'). The
// choices between them are users-search.repository.ts's, from users-search-words.model.ts.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { PREPARE_ANYWAY } from '../../db/database.ts';
import { listsVersion } from '../../db/list-totals.ts';
import type { Database } from '../../db/schema.ts';
import { unseenText, unseenTexts } from '../../db/unseen.ts';
import { holdersCountedBy, type HeldWord } from './users-search-words.model.ts';
import { orderByKey, type SortOrder } from './users-sort.repository.ts';
import { holdsRole, keptCount, type SearchScope } from './users-search-term.repository.ts';

/** Who a search counts: active users unless `includeInactive`, the caller left out when given, the holders of `roleId` only when given. */
type Counted = SearchScope;

const countedHolder = (query: Counted) =>
  sql`(p.is_active or ${query.includeInactive})${holdsRole(sql.raw('p'), query)} ${query.excludeUserId ? sql`and p.id <> ${query.excludeUserId}` : sql``}`;

/** The texts a term is looked for in: the users' words, or their phrases (migration 0039: a name, an e-mail up to its '@', from it). */
export type HeldKind = 'words' | 'phrases';

/** Whether a counts' row `c` holds the kind of text searched (each of its partial trigram indexes has this condition). */
const phraseCondition = (kind: HeldKind) => (kind === 'phrases' ? sql`search_phrase(c.word)` : sql`not search_phrase(c.word)`);

/**
 * The words (or phrases) a LIKE pattern finds, each with how many users hold it (active ones only unless
 * `includeInactive`; holders of `roleId` only when given), most held first; and the users list's version in the same
 * snapshot (keptTotal). Null until the words of every user are written (the backfill of migration 0039, after 0019's):
 * a word's holders are not all known yet. Within a role, the words are found in 0039's counts, and each one's holders
 * within the role read from 0040's (the caller has checked its backfill is through).
 */
export async function heldWords(
  db: Kysely<Database>,
  pattern: string,
  kind: HeldKind,
  includeInactive: boolean,
  roleId?: number,
): Promise<{ words: HeldWord[]; version: number } | null> {
  const phrase = phraseCondition(kind);
  const n = keptCount('c', includeInactive);
  const found =
    roleId === undefined
      ? sql`select c.word, ${n} as n from user_search_word_counts as c
          where r.ready and c.word like ${unseenText(pattern)} and ${phrase}
          group by c.word having ${n} > 0`
      : sql`select t.word, h.n from (
            select c.word from user_search_word_counts as c where r.ready and c.word like ${unseenText(pattern)} and ${phrase} group by c.word) as t
          cross join lateral (select ${n} as n from user_search_word_role_counts as c where c.word = t.word and c.role_id = ${roleId}) as h
          where h.n > 0`;
  // Prepared although it holds a LIKE: its plan (the pattern asked of the trigram index) is the same for any pattern,
  // which the planner does not see (unseenText): seen, it planned the statement again at every term (0.5 ms at 1M).
  const { rows } = await sql<{ ready: boolean; version: string; word: string | null; n: string | null }>`${sql.raw(PREPARE_ANYWAY)}
    select r.ready, r.version, w.word, w.n
    from (select coalesce((select done from user_search_words_backfill), false) and coalesce((select done from user_search_backfill), false) as ready,
                 ${listsVersion(['users'])} as version) as r
    left join lateral (${found}) as w on true`.execute(db);
  if (!rows[0]?.ready) return null;
  const words = rows.filter((row) => row.word !== null).map((row) => ({ word: row.word!, n: Number(row.n) }));
  words.sort((a, b) => b.n - a.n || (a.word < b.word ? -1 : 1));
  return { words, version: Number(rows[0].version) };
}

/**
 * The users holding a word (or phrase) the LIKE pattern finds, as a condition on `users`: their ids gathered first (an
 * initplan, whatever the planner estimates), the words read in the same statement. For a search with other filters
 * whose term few users hold (users-list.repository.ts): estimated from its trigrams, 'kervella' among the holders of a
 * role looked like 9,828 users at 1M and the list's name order was walked through all of them (1.3 s) for its 1,016.
 */
export function heldByCondition(pattern: string, kind: HeldKind): RawBuilder<boolean> {
  const phrase = phraseCondition(kind);
  return sql<boolean>`users.id = any(array(select p.id from user_search_words as p
    where p.word in (select c.word from user_search_word_counts as c where c.word like ${unseenText(pattern)} and ${phrase})))`;
}

/**
 * A page in name or e-mail order (`reversed`: read from the other end) of the users holding a word (or phrase) the LIKE
 * pattern finds and passing `passes`, a condition on the holder `p` (a user_search_words row), as a subquery of their
 * ids: each word's first offset + pageSize holders passing it, in that order from the word's index, merged (mergedPage
 * with a filter). The words are read in the same statement. Each holder read is checked (a few microseconds): for a
 * search whose term few hold (heldByCondition) within a filter many pass (a role).
 */
export function filteredMergedPage(
  pattern: string,
  kind: HeldKind,
  passes: RawBuilder<boolean>,
  query: SortOrder & { offset: number; pageSize: number; reversed: boolean },
): RawBuilder<{ id: string }> {
  const phrase = phraseCondition(kind);
  const key = query.sort === 'email' ? sql.raw('email_key') : sql.raw('name_key');
  const direction = sql.raw((query.order === 'desc') !== query.reversed ? 'desc' : 'asc');
  return sql<{ id: string }>`(
    select x.id from (select c.word from user_search_word_counts as c where c.word like ${unseenText(pattern)} and ${phrase} group by c.word) as w
    cross join lateral (
      select p.id, p.${key} as k from user_search_words as p
      where p.word = w.word and ${passes}
      order by p.${key} ${direction}, p.id ${direction}
      limit ${sql.lit(query.offset + query.pageSize)}) as x
    group by x.k, x.id
    order by x.k ${direction}, x.id ${direction}
    limit ${sql.lit(query.pageSize)}${query.offset > 0 ? sql` offset ${sql.lit(query.offset)}` : sql``})`;
}

/**
 * The number of users holding one of `words` (counted once however many they hold), as a count query for exactTotal,
 * `words` most held first. Words, once the flags of migration 0041 are all written, from their kept counts
 * (overlapsTotal); phrases, and words before then, from their holders (heldTotal).
 */
export function wordsTotal(db: Kysely<Database>, words: readonly HeldWord[], query: Counted, kind: HeldKind) {
  const counted = heldTotal(words, query);
  if (kind === 'phrases') return db.selectNoFrom(counted.as('total'));
  return db.selectNoFrom(sql<number>`(case when coalesce((select done from user_search_overlaps_backfill), false) then ${overlapsTotal(words, query)} else ${counted} end)`.as('total'));
}

/**
 * The number of users holding one of `words` (not phrases) from the words' kept counts (migration 0041): their sum, less
 * each user's holdings beyond the first. A user holding two of them shares the term, four characters or more, between
 * those two words: both are flagged as overlapping, and the flagged holdings of the words alone are read (their partial
 * index; 'Martin' at 1M: its 47 words' counts and about 8,000 flagged holdings, instead of hashing 64,372 holders).
 */
function overlapsTotal(words: readonly HeldWord[], query: Counted): RawBuilder<number> {
  const texts = unseenTexts(words.map((w) => w.word));
  const counts =
    query.roleId === undefined
      ? sql`from user_search_word_counts as c where c.word = any(${texts})`
      : sql`from user_search_word_role_counts as c where c.word = any(${texts}) and c.role_id = ${query.roleId}`;
  const filtered = sql`(p.is_active or ${query.includeInactive})${holdsRole(sql.raw('p'), query)}`;
  const self = query.excludeUserId
    ? sql`(select least(count(*), 1) from user_search_words as p where p.id = ${query.excludeUserId} and p.word = any(${texts}) and ${filtered})`
    : sql`0`;
  return sql<number>`((select coalesce(${keptCount('c', query.includeInactive)}, 0) ${counts})
    - (select count(*) - count(distinct p.id) from user_search_words as p where p.overlapping and p.word = any(${texts}) and ${filtered})
    - ${self})`;
}

/**
 * The number of users holding one of `words` (or phrases) from their holders: each holder counted once, by hashing their
 * ids; or, when the other words have several times fewer holders than all of them (PROBE_COST), the first one's holders from its counts plus those of the others
 * who do not hold it, each looked for in the primary key. A term's words are often one that most of its users hold and
 * its variants in e-mails held by the same users (an initial before a surname: 'msimon'): 'marie' (45,053 users at 1M)
 * and 66 words besides it, 1,361 more holders, measured before digits cut words ('marie2' was one), where hashing every
 * holder took 32 ms and the probes 2. A probe costs more than an id hashed, about five
 * times with the key's pages out of memory: 'francois' and 'francoise' (19,125 and 10,066 holders, few in common) took
 * 84 ms that way, 16 hashed.
 */
function heldTotal(words: readonly HeldWord[], query: Counted): RawBuilder<number> {
  const [first, ...others] = words;
  const texts = (list: readonly HeldWord[]) => unseenTexts(list.map((w) => w.word));
  if (!first || holdersCountedBy(words) === 'hash') {
    return sql<number>`(select count(*) from (select distinct p.id from user_search_words as p
        where p.word = any(${texts(words)}) and ${countedHolder(query)}) as held)`;
  }
  const word = unseenText(first.word);
  const self = query.excludeUserId
    ? sql`(select count(*) from user_search_words as p where p.id = ${query.excludeUserId} and p.word = ${word} and (p.is_active or ${query.includeInactive})${holdsRole(sql.raw('p'), query)})`
    : sql`0`;
  const firstHolders =
    query.roleId === undefined
      ? sql`from user_search_word_counts as c where c.word = ${word}`
      : sql`from user_search_word_role_counts as c where c.word = ${word} and c.role_id = ${query.roleId}`;
  return sql<number>`((select coalesce(${keptCount('c', query.includeInactive)}, 0) ${firstHolders})
      - ${self}
      + (select count(*) from (select distinct p.id from user_search_words as p where p.word = any(${texts(others)}) and ${countedHolder(query)}) as d
         where (select count(*) from user_search_words as q where q.id = d.id and q.word = ${word} and (q.is_active or ${query.includeInactive})) = 0))`;
}

/**
 * A page in name or e-mail order (`reversed`: read from the other end, as fromNearerEnd tells) of the users holding
 * one of `words`, as the ids of a subquery (the users list reads their rows in the same statement): each word's first
 * offset + pageSize holders in that order from its index, the users held by two words once, then the page. Every user
 * of the page is among the first offset + pageSize of one of its words. Prepared: its plan is the same for any words.
 */
export function mergedPage(words: readonly string[], query: Counted & SortOrder & { offset: number; pageSize: number; reversed: boolean }): RawBuilder<{ id: string }> {
  const key = query.sort === 'email' ? sql.raw('email_key') : sql.raw('name_key');
  const direction = sql.raw((query.order === 'desc') !== query.reversed ? 'desc' : 'asc');
  return sql<{ id: string }>`(${sql.raw(PREPARE_ANYWAY)}
    select x.id from unnest(${unseenTexts(words)}) as w (word)
    cross join lateral (
      select p.id, p.${key} as k from user_search_words as p
      where p.word = w.word and ${countedHolder(query)}
      order by p.${key} ${direction}, p.id ${direction}
      limit ${sql.lit(query.offset + query.pageSize)}) as x
    group by x.k, x.id
    order by x.k ${direction}, x.id ${direction}
    limit ${sql.lit(query.pageSize)}${query.offset > 0 ? sql` offset ${sql.lit(query.offset)}` : sql``})`;
}

/** A page in the last sign-in's order of the users holding one of `words`, as a subquery: all of them, sorted. */
export function lastLoginPage(words: readonly string[], query: Counted & SortOrder & { offset: number; pageSize: number }): RawBuilder<{ id: string }> {
  return sql<{ id: string }>`(
    with m as (
      select s.id, s.last_login_at as k from user_search as s
      where s.id = any(array(select p.id from user_search_words as p where p.word = any(${unseenTexts(words)}) and ${countedHolder(query)})))
    select m.id from m order by ${orderByKey(query)}
    limit ${sql.lit(query.pageSize)}${query.offset > 0 ? sql` offset ${sql.lit(query.offset)}` : sql``})`;
}
