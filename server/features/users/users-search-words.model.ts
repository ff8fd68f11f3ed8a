// The words and phrases of the users' search (issue 20, migration 0039). A folded name or e-mail cut at its separators
// and where digits meet other characters gives its words; the name, the e-mail's part up to its first '@' and the part
// from it are its phrases. A term without a separator or such a meeting is in a name or an e-mail exactly when it is in
// one of its words; any other with no '@' between two characters, exactly when it is in one of its phrases. And how a page of a search is read from them. Pure.

/** The separators of search_words() (migration 0039): a test holds the two equal. */
export const WORD_SEPARATORS = " .@_'’+-";

/** A separator, or digits meeting other characters: where search_words() cuts a text into words. */
const CUT = /[ .@_'’+-]|[0-9][^0-9]|[^0-9][0-9]/u;
const NOT_SEPARATOR = /[^ .@_'’+-]/u;
/** An '@' with a character on each side: the term may run from an e-mail's local part into its domain. */
const INNER_AT = /[^]@[^]/u;

/**
 * Where a folded term is looked for: in the users' words (no separator, no digits meeting other characters), in their
 * phrases (otherwise, with no '@' between two characters), or neither (null: an '@' inside, found through the e-mail
 * parts index; separators only, which nearly every phrase holds).
 */
export function searchTexts(folded: string): 'words' | 'phrases' | null {
  if (INNER_AT.test(folded) || !NOT_SEPARATOR.test(folded)) return null;
  return CUT.test(folded) ? 'phrases' : 'words';
}

/** A word (or phrase) holding a term, and how many users hold it (active ones only unless the list includes inactive users). */
export interface HeldWord {
  word: string;
  n: number;
}

/**
 * How a page of a term is read. In name or e-mail order, 'merge' reads each text's holders in that order from the texts'
 * indexes, at most `offset + pageSize` of each; 'walk' reads the list's own order until the page's last match, about
 * (offset + pageSize) × everyone ÷ total rows if the matches are spread along it, each row a lookup (WALKED_ROW_COST).
 * The merge's cost is exact; the walk's is a hope (a surname's holders sit together in name
 * order, and so do a phrase's, 'e m' at the last names in m), so it is only chosen for words, and when several times
 * cheaper. In the last sign-in's order, which no text index holds, 'fetch' reads every match and sorts the page out of
 * them; the walk, whose hope holds there (a sign-in's moment does not follow a name), when it reads fewer rows.
 */
export function wordsPageWay(input: {
  sort: 'name' | 'email' | 'lastLogin';
  words: readonly HeldWord[];
  phrases: boolean;
  total: number;
  everyone: number;
  offset: number;
  pageSize: number;
}): 'merge' | 'walk' | 'fetch' {
  const { sort, words, phrases, total, everyone, offset, pageSize } = input;
  const walked = ((offset + pageSize) * everyone) / Math.max(total, 1);
  if (sort === 'lastLogin') {
    const fetched = words.reduce((sum, w) => sum + w.n, 0);
    return walked < fetched ? 'walk' : 'fetch';
  }
  if (phrases) return 'merge';
  const reach = offset + pageSize;
  const merged = words.reduce((sum, w) => sum + Math.min(reach, w.n) + 3, 0);
  return WALKED_ROW_COST * walked * 4 < merged ? 'walk' : 'merge';
}

/**
 * What a row walked costs, in entries of a text's index: looked up in user_search and its name and e-mail checked
 * (about 8 µs a row on the 1M database, against 0.3 to 0.4 µs an index entry the merge reads).
 */
export const WALKED_ROW_COST = 20;

/**
 * Below this many rows walked, a word of one to three characters (whose total the gram counts give) is walked without
 * looking for its words: a term many users hold ('e', 'le', 'mar'), in hundreds or thousands of words. Measured on the
 * 1M database, a search again (one connection, median of 200): 'mar' (171,542 users, about 58 rows to walk) 0.99 ms
 * walked, 1.73 merged; 'lau' (48,652 users, about 206 rows, but 'laurent' sits together in name order) 2.28 walked,
 * 1.17 merged. One of one or two characters has no trigram to find its words by (every word is read: about 15 ms), so
 * it is walked up to 1,000 rows (about 8 ms).
 */
export function walkAtMost(folded: string): number {
  return [...folded].length < 3 ? 1_000 : 100;
}

/**
 * What a holder probed in the primary key costs against one hashed (wordsTotal): a probe descends the key, about four
 * pages, where a hashed holder is one entry of its word's index. Measured at 1M users, pages in memory (2026-11-28):
 * 3.7 µs a probe, 0.3 µs a holder hashed. 'petit' (24,508 holders, 43 words besides it with 4,023): 7.9 ms hashed,
 * 14.6 ms probed; 'simon' (12,830 and 1,351): 3.5 ms hashed, 13 ms probed. Five, the earlier figure, probed both.
 */
export const PROBE_COST = 13;

/**
 * How wordsTotal counts the holders of `words` (most held first) once: 'hash' hashes every holder's id; 'probe' takes the
 * first word's count and probes the others' holders in the primary key, when they are several times fewer (PROBE_COST).
 */
export function holdersCountedBy(words: readonly HeldWord[]): 'hash' | 'probe' {
  const [first, ...others] = words;
  const all = words.reduce((sum, w) => sum + w.n, 0);
  const probed = others.reduce((sum, w) => sum + w.n, 0);
  return first && probed * PROBE_COST < all ? 'probe' : 'hash';
}

/**
 * Holders of a search's words at most, below which a search within a role or an account state starts from them
 * (users-list.repository.ts): each holder costs about 5 µs (its row and the filter checked), where the list's order is
 * walked at about 16 µs a row until a page of matches, through all of a surname's namesakes before them (they sit
 * together in that order: 'Dubois' within a role, 0.7 s walked, 0.11 s from its 12,373 holders at 1M).
 */
export const HELD_FIRST_AT_MOST = 40_000;

/**
 * Whether a search with other filters starts from its words' holders: a word or phrase of four characters or more
 * held by at most HELD_FIRST_AT_MOST users; a term of one to three characters, whose holders are spread along the
 * list's order, only when reading them costs less than walking ten rows per match: holders² < 32 × everyone.
 */
export function heldFirst(input: { holders: number; everyone: number; counted: boolean; atMost?: number }): boolean {
  const { holders, everyone, counted, atMost = HELD_FIRST_AT_MOST } = input;
  if (holders === 0 || holders > atMost) return false;
  return !counted || holders * holders < 32 * everyone;
}

/**
 * How the page of a search that starts from its words' holders (heldFirst) is read: in name or e-mail order, 'merge'
 * (each word's first holders passing the filter, filteredMergedPage); by last sign-in, which no word index holds,
 * 'gather' every holder passing it and sort them, or 'walk' the sign-in order when that reads fewer: a sign-in's moment
 * does not follow a name, so the matches are spread along it, about (offset + pageSize) × everyone ÷ total rows,
 * each row three times a holder's cost (16 µs against 5 at 1M: `Dubois` within a role walked 13 ms, gathered 77 ms;
 * `Kervella` there walked 842 ms, gathered 15 ms).
 */
export function heldPageWay(input: { sort: 'name' | 'email' | 'lastLogin'; holders: number; total: number; everyone: number; offset: number; pageSize: number }): 'merge' | 'gather' | 'walk' {
  const { sort, holders, total, everyone, offset, pageSize } = input;
  if (sort !== 'lastLogin') return 'merge';
  const walked = ((offset + pageSize) * everyone) / Math.max(total, 1);
  return walked * WALKED_ROW_TO_HOLDER < holders ? 'walk' : 'gather';
}

/** What a row walked along the list's order costs against a holder read (heldPageWay). */
const WALKED_ROW_TO_HOLDER = 3.2;
