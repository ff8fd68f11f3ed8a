// What an audit entry records. Pure.
import type { AuditAction, AuditEntityType, JsonValue } from '../../db/schema.ts';
import { isIndexedGram } from '../../core/search-fold.ts';

export interface AuditEntry {
  /**
   * `name`: the author's name when no person is (the portal's own jobs: 'Système'); a person's as the request loaded it
   * (Actor.name), else read from users; none once their account is gone.
   */
  actor: { userId: string | null; email: string | null; name?: string | null };
  action: AuditAction;
  entityType: AuditEntityType;
  entityId: string | number;
  /** The organization the entry is filed under (the first of organizationIds when not given). */
  organizationId?: string | null;
  /**
   * Every organization the entry concerns (migration 0013, audit_log_organizations): for a user, each one the
   * user belonged to before or after the change; for a request, its organization. Organization callers read
   * an entry when they hold USER_LIST on one of them.
   */
  organizationIds?: readonly string[];
  /** The person or request concerned as people read them: the person's name, and the e-mails one may search by. */
  subject?: { name?: string | null; emails?: readonly (string | null | undefined)[] };
  /** { field: { before, after } } of the changed fields, or a description of what changed. */
  changes: Record<string, JsonValue>;
}

/** The before/after of the fields that differ, for an audit entry. */
export function changedFields<T extends Record<string, JsonValue | undefined>>(before: T, after: Partial<T>): Record<string, JsonValue> {
  const changes: Record<string, JsonValue> = {};
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const old = before[field] ?? null;
    if (JSON.stringify(old) !== JSON.stringify(value)) changes[field] = { before: old, after: value };
  }
  return changes;
}

/**
 * Text as the journal's search compares it: lower-case, without accents (é → e, ç → c), œ → oe, æ → ae, spaces
 * collapsed. The stored search text of an entry and the searched term both go through it (PGlite has no unaccent).
 */
export function searchable(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/\s+/g, ' ')
    .trim();
}

const searchText = (parts: readonly (string | null | undefined)[]) =>
  searchable([...new Set(parts.filter((p): p is string => typeof p === 'string' && p.length > 0))].join(' '));

/** The search text of an entry: the author's name and e-mail, the person's name and e-mails (or the invitee's). */
export function entrySearchText(actorName: string | null, entry: Pick<AuditEntry, 'actor' | 'subject'>): string {
  return searchText([actorName, entry.actor.email, entry.subject?.name, ...(entry.subject?.emails ?? [])]);
}

/** The search text of the person or request an entry concerns alone: what finds it whoever its author is. */
export function entrySubjectSearchText(entry: Pick<AuditEntry, 'subject'>): string {
  return searchText([entry.subject?.name, ...(entry.subject?.emails ?? [])]);
}

/** The organizations of an entry, the filed-under one first, each once. */
export function entryOrganizations(entry: Pick<AuditEntry, 'organizationId' | 'organizationIds'>): string[] {
  return [...new Set([entry.organizationId, ...(entry.organizationIds ?? [])].filter((id): id is string => typeof id === 'string'))];
}

/**
 * Which strings of a search to ask the trigram index for, from how many people hold each (rarest first, with where
 * it starts in the term): the rarest of each word of letters and digits, the rarest words first, up to three,
 * and a second, not overlapping the first, when the term is one word. An e-mail's domain or an author's name can
 * make a string rare among people common in the journal (an author's text is in every entry they wrote), so
 * strings of different words narrow best: 'cio' and 'tat' of 'ciotat' were 89,742 entries of the 10M journal,
 * 'cio', 'vir' and 'dub' of 'virginie.dubois@…-ciotat.fr' a few hundred. None below three characters. Pure.
 */
export function searchNarrowing(term: string, counted: readonly { gram: string; at: number; n: number }[]): string[] {
  // Each character's word: a letter or digit following one stays in its word; anything else starts a new one.
  const letters = [...term];
  const inWord = (i: number) => i >= 0 && /[\p{L}\p{N}]/u.test(letters[i]!);
  let word = 0;
  const wordOf = letters.map((_, i) => (inWord(i) && inWord(i - 1) ? word : ++word));
  const indexed = counted.filter((c) => isIndexedGram(c.gram));
  const chosen: { gram: string; at: number }[] = [];
  // The rarest string of each word, rarest first; then, with a single word, a second one that does not overlap it.
  for (const candidate of indexed) {
    if (chosen.length < 3 && chosen.every((c) => wordOf[c.at] !== wordOf[candidate.at] && c.gram !== candidate.gram)) chosen.push(candidate);
  }
  for (const candidate of indexed) {
    if (chosen.length < 2 && chosen.every((c) => Math.abs(c.at - candidate.at) >= 3 && c.gram !== candidate.gram)) chosen.push(candidate);
  }
  return chosen.map((c) => c.gram);
}

/**
 * Up to this many matching entries a page may be gathered (every match read by the filters' own indexes, then
 * sorted): read newest first instead, a selective filter (an e-mail searched, a small organization) would walk the
 * whole journal's time index to find its few entries.
 */
export const GATHER_BELOW = 5_000;

/**
 * How much longer than its expected length a walk may turn out (matches bunched in the past rather than spread over
 * time) before gathering would have been cheaper: the margin by which gathersPage prefers to gather.
 */
export const WALK_MARGIN = 4;

/**
 * Whether a page ending at `reach` (its offset and size) is gathered rather than walked newest first along the time
 * index, for `total` matching entries of `everyone` in the journal. A walk reads about reach × everyone ÷ total
 * entries to find the page's end (matches spread over time), a gathering reads every match; each costs about the
 * same per entry read (0.7 and 0.8 µs on the 1M benchmark's journal of 80,514 entries). So a page is gathered when
 * total² ≤ WALK_MARGIN × reach × everyone, and never above GATHER_BELOW: 'martin' (4,797 entries of 80,514) is walked
 * for its page 1, 170 entries read (0.3 ms, against 4.6 gathered), and gathered from its page 8 on; on a journal of
 * 10 million entries any term of GATHER_BELOW entries or fewer is gathered. Pure.
 */
export function gathersPage({ total, everyone, reach }: { total: number; everyone: number; reach: number }): boolean {
  return total <= GATHER_BELOW && total * total <= WALK_MARGIN * reach * everyone;
}

/** What ends an address's text as migration 0036 indexes it: an '@', or any space (a wider set than PostgreSQL's). */
const OUTSIDE_AN_ADDRESS = /[@\s\p{Z}\p{C}]/u;

/**
 * The parts of a search around its first '@' that the journal's address indexes can find (migration 0036): the text
 * before it back to a space, and the text after it up to a space or another '@'. Wherever the term occurs, these
 * stand at an '@' of the entry's search text, the first at the end of the text before it (back to an '@' or a
 * space), the second at the start of the text after it: so the entries holding them hold every entry holding the
 * term. Null when either is empty (no '@', or nothing beside it). Characters, not UTF-16 units. Pure.
 */
export function addressParts(term: string): { local: string; domain: string } | null {
  const at = term.indexOf('@');
  if (at < 0) return null;
  const before = [...term.slice(0, at)];
  const after = [...term.slice(at + 1)];
  let start = before.length;
  while (start > 0 && !OUTSIDE_AN_ADDRESS.test(before[start - 1]!)) start--;
  let end = 0;
  while (end < after.length && !OUTSIDE_AN_ADDRESS.test(after[end]!)) end++;
  const local = before.slice(start).join('');
  const domain = after.slice(0, end).join('');
  return local && domain ? { local, domain } : null;
}
