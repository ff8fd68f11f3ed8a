// A users' search found through their words or phrases (issue 20, migration 0039): what is known of a term (its
// total, the words or phrases holding it, the list's size), the page read from that, and what one server process keeps
// of it while the users list's version stays (list-totals.ts ListTotals.outlooks), with the ids of the pages read at
// that version. A kept outlook is never trusted: its page is read in one statement with the list's version, and the
// users list checks that version is the one the outlook was read at before using the page (users-list.repository.ts).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { fromNearerEnd } from '../../core/pages.ts';
import { exactTotal, keptTotal, type ListTotals } from '../../db/list-totals.ts';
import { containsPattern } from '../../db/like.ts';
import type { Database } from '../../db/schema.ts';
import { isCountedTerm, searchTotal, walkedPage, type SearchPageQuery } from './users-search-term.repository.ts';
import { walkAtMost, wordsPageWay, type HeldWord } from './users-search-words.model.ts';
import { heldWords, lastLoginPage, mergedPage, wordsTotal, type HeldKind } from './users-search-words.repository.ts';

/**
 * A search's total, and its page: its ids, or a subquery of them read with its rows, to be checked at `atVersion` when
 * given; `keep`, told the page's ids once they are checked at that version.
 */
export type SearchFound =
  | { total: number; ids: string[] }
  | { total: number; page: RawBuilder<{ id: string }>; atVersion?: number; keep?: (ids: readonly string[]) => void };

/**
 * What is known of a term: its exact total, the users list's size, the texts holding it; `version`: the users list's
 * version they all hold at; `pages`: pages in name or e-mail order read at that version (their ids by pageKey).
 */
interface TextsOutlook {
  total: number;
  everyone: number | null;
  texts: HeldWord[] | null;
  version: number | null;
  pages?: Map<string, readonly string[]>;
}

/**
 * The pages an outlook keeps, at most: a page in name or e-mail order is the same while the users list's version
 * stays (its users' names, e-mails and states move it; a sign-in other than the first does not, so a page by last
 * sign-in is never kept).
 */
const KEPT_PAGES = 8;
const pageKey = (query: SearchPageQuery) => `${query.sort}\u0000${query.order}\u0000${query.offset}\u0000${query.pageSize}`;

/** A page whose ids are known, as the subquery of its rows. */
export const idsPage = (ids: readonly string[]) => sql<{ id: string }>`(select unnest(${[...ids]}::uuid[]) as id)`;

/** The page the outlook tells, or what it lacks to tell it. `onlyWords` (tests): never walked. */
function pageOf(outlook: TextsOutlook, query: SearchPageQuery, kind: HeldKind, onlyWords: boolean): SearchFound | 'everyone' | 'texts' {
  const { total, everyone, texts } = outlook;
  if (total === 0 || query.offset >= total) return { total, ids: [] };
  // A page in the second half is read from the other end: the costs are those of its offset from there.
  const at = fromNearerEnd(query, total);
  if (isCountedTerm(query.term) && kind === 'words' && !onlyWords) {
    if (everyone === null) return 'everyone';
    if (((at.offset + at.pageSize) * everyone) / total <= walkAtMost(query.term.folded)) return { total, page: walkedPage(at) };
  }
  if (texts === null) return 'texts';
  const page = { sort: query.sort, words: texts, phrases: kind === 'phrases', total, offset: at.offset, pageSize: at.pageSize };
  // The list's size matters only if a walk could be chosen at all: with everyone = total it reads the fewest rows it ever could.
  const mayWalk = !onlyWords && wordsPageWay({ ...page, everyone: total }) === 'walk';
  if (mayWalk && everyone === null) return 'everyone';
  const way = wordsPageWay({ ...page, everyone: mayWalk ? everyone! : Number.POSITIVE_INFINITY });
  const words = texts.map((w) => w.word);
  if (way === 'walk') return { total, page: walkedPage(at) };
  if (way === 'fetch') return { total, page: lastLoginPage(words, query) };
  return { total, page: mergedPage(words, at) };
}

/** The version a kept total holds at, if it is `total` (the one just read): else null, nothing to keep. */
const versionOf = (kept: { version: number; total: number } | undefined, total: number) => (kept?.total === total ? kept.version : null);

const outlookKey = (query: SearchPageQuery, kind: HeldKind) =>
  `${kind}\u0000${query.term.folded}\u0000${query.includeInactive}\u0000${query.excludeUserId ?? ''}\u0000${query.roleId ?? ''}`;

/**
 * A term found whole in the users' words or phrases (users-search.repository.ts searchPage): its total from the counts
 * of its strings (one to three characters) or of its texts; its page from the texts' indexes in the list's order, or
 * by walking the list when that reads several times fewer rows (a short and common word: wordsPageWay). What a first
 * request learnt is kept (ListTotals.outlooks), and a later page or the same search again reads its page at once, to be
 * checked by the users list against the version it holds at (`keptOutlook` false: not read, after such a check
 * failed). `onlyWords` (tests): never walked, nothing kept. Null until every user's words are written.
 */
export async function textsPage(
  db: Kysely<Database>,
  query: SearchPageQuery,
  kind: HeldKind,
  totals: ListTotals | null,
  { onlyWords, keptOutlook }: { onlyWords: boolean; keptOutlook: boolean },
): Promise<SearchFound | null> {
  const key = outlookKey(query, kind);
  const kept = onlyWords || !keptOutlook ? undefined : (totals?.outlooks.get(key) as TextsOutlook | undefined);
  if (kept?.version != null) {
    const ids = kept.pages?.get(pageKey(query));
    if (ids) return { total: kept.total, page: idsPage(ids), atVersion: kept.version };
    const found = pageOf(kept, query, kind, onlyWords);
    if (typeof found !== 'string' && 'page' in found) {
      const keep = query.sort === 'lastLogin' ? undefined : (read: readonly string[]) => keepPage(kept, pageKey(query), read);
      return { ...found, atVersion: kept.version, ...(keep ? { keep } : {}) };
    }
  }
  const outlook: TextsOutlook = { total: -1, everyone: null, texts: null, version: null };
  if (isCountedTerm(query.term)) {
    const count = db.selectNoFrom(searchTotal(query.term, query).as('total'));
    outlook.total = await exactTotal(db, 'users', count, totals);
    outlook.version = versionOf(keptTotal('users', count, totals), outlook.total);
  } else outlook.total = Number.NaN;
  for (;;) {
    const found = Number.isNaN(outlook.total) ? 'texts' : pageOf(outlook, query, kind, onlyWords);
    if (found === 'everyone') outlook.everyone = await query.everyone();
    else if (found === 'texts') {
      if (!(await readTexts(db, query, kind, totals, outlook))) return null;
    } else {
      if (totals && outlook.version !== null && !onlyWords) totals.outlooks.set(key, outlook);
      return found;
    }
  }
}

/** A page's ids, read at the outlook's version, kept with it (the first KEPT_PAGES pages asked). */
function keepPage(outlook: TextsOutlook, key: string, ids: readonly string[]): void {
  outlook.pages ??= new Map();
  if (outlook.pages.size < KEPT_PAGES || outlook.pages.has(key)) outlook.pages.set(key, ids);
}

/**
 * The texts holding the term, and its total when not yet known, into `outlook`; its version kept only if the total
 * and the texts hold at the same one. False until every user's words are written.
 */
async function readTexts(db: Kysely<Database>, query: SearchPageQuery, kind: HeldKind, totals: ListTotals | null, outlook: TextsOutlook): Promise<boolean> {
  const held = await heldWords(db, containsPattern(query.term.folded), kind, query.includeInactive, query.roleId);
  if (!held) return false;
  const texts = held.words;
  outlook.texts = texts;
  if (!Number.isNaN(outlook.total)) {
    if (outlook.version !== held.version) outlook.version = null;
    return true;
  }
  outlook.version = held.version;
  if (texts.length === 0) outlook.total = 0;
  else if (texts.length === 1 && !query.excludeUserId) outlook.total = texts[0]!.n;
  else {
    // A total kept at the texts' version is theirs; one counted now holds at its own version, kept only if the same.
    const count = wordsTotal(db, texts, query, kind);
    const kept = keptTotal('users', count, totals);
    if (kept?.version === held.version) outlook.total = kept.total;
    else {
      outlook.total = await exactTotal(db, 'users', count, totals);
      if (versionOf(keptTotal('users', count, totals), outlook.total) !== held.version) outlook.version = null;
    }
  }
  return true;
}
