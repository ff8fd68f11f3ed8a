// The search benchmark's terms (issue 20): a deterministic draw from the data's own vocabulary (names, e-mail
// parts, domains, 1-3 letter fragments), with accents and without, and terms that match nobody; and the
// search's meaning, to count each term's matches independently of the server. Pure.
import { Random } from '../server/seed/seed-random.ts';

export type TermKind =
  | 'surname'
  | 'surname-unaccented'
  | 'surname-upper'
  | 'first-name'
  | 'first-name-unaccented'
  | 'first-name-upper'
  | 'full-name'
  | 'email-local'
  | 'email-domain'
  | 'domain-fragment'
  | 'email'
  | 'fragment-1'
  | 'fragment-2'
  | 'fragment-3'
  | 'no-match';

export interface SearchTerm {
  term: string;
  kind: TermKind;
}

/** A word of the data and how many users carry it. */
export interface Counted {
  value: string;
  count: number;
}

/** What the data holds: every distinct first name, surname and e-mail domain with its number of users, and a sample of users. */
export interface Vocabulary {
  firstNames: readonly Counted[];
  lastNames: readonly Counted[];
  domains: readonly Counted[];
  /** Users drawn at random (repeatably), for full names, e-mails and their local parts. */
  people: readonly { firstName: string; lastName: string; email: string }[];
}

/** How many terms of each kind (before duplicates are dropped); at least 200 in all. */
export const TERM_QUOTAS: Readonly<Record<TermKind, number>> = {
  surname: 30,
  'surname-unaccented': 15,
  'surname-upper': 10,
  'first-name': 20,
  'first-name-unaccented': 15,
  'first-name-upper': 6,
  'full-name': 20,
  'email-local': 20,
  'email-domain': 15,
  'domain-fragment': 10,
  email: 20,
  'fragment-1': 10,
  'fragment-2': 20,
  'fragment-3': 20,
  'no-match': 12,
};

export const DEFAULT_SEED = 20;

/** Lower case, accents and ligatures away: 'Hélène' → 'helene', 'Œuvre' → 'oeuvre'. The search's meaning (issue 20). */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  // eslint-disable-next-line no-control-regex
  if (!/[^\u0000-\u007f]/.test(lower)) return lower;
  return lower.normalize('NFD').replace(/\p{M}/gu, '').replace(/œ/g, 'oe').replace(/æ/g, 'ae');
}

/** Whether a user matches a search: the folded term within the folded 'First Last' or the folded e-mail. */
export function matches(foldedTerm: string, user: { firstName: string; lastName: string; email: string }): boolean {
  return fold(`${user.firstName} ${user.lastName}`).includes(foldedTerm) || fold(user.email).includes(foldedTerm);
}

/** Lower case only: what a search that does not ignore accents finds (the count a mismatch is compared with). */
export const caseOnly = (text: string) => text.toLowerCase();

/** Counts each term's matches over users given one at a time (each user folded once); `normalize` is fold unless said. */
export class MatchCounter {
  readonly #terms: string[];
  readonly #counts: number[];
  readonly #normalize: (text: string) => string;

  constructor(terms: readonly string[], normalize: (text: string) => string = fold) {
    this.#normalize = normalize;
    this.#terms = terms.map((t) => normalize(t.trim()));
    this.#counts = terms.map(() => 0);
  }

  add(user: { firstName: string; lastName: string; email: string }): void {
    const name = this.#normalize(`${user.firstName} ${user.lastName}`);
    const email = this.#normalize(user.email);
    for (let i = 0; i < this.#terms.length; i += 1) {
      const term = this.#terms[i]!;
      if (name.includes(term) || email.includes(term)) this.#counts[i]! += 1;
    }
  }

  counts(): number[] {
    return [...this.#counts];
  }
}

/** The demo seed's generator (mulberry32): the same seed, the same draws. */
export function seededRandom(seed: number): () => number {
  const random = new Random(seed);
  return () => random.float();
}

const hasAccent = (text: string) => fold(text) !== text.toLowerCase();

/**
 * `n` distinct entries: half the most common ones (drawn among the top tenth by count, at least n),
 * half drawn uniformly among all (most distinct words are rare), in a repeatable order.
 */
export function commonAndRare<T extends Counted>(items: readonly T[], n: number, random: () => number): T[] {
  const sorted = [...items].sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  const top = sorted.slice(0, Math.max(n, Math.ceil(sorted.length / 10)));
  const picked = new Set<T>();
  const draw = (from: readonly T[], want: number) => {
    const pool = from.filter((item) => !picked.has(item));
    while (want > 0 && pool.length > 0) {
      picked.add(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
      want -= 1;
    }
  };
  draw(top, Math.ceil(n / 2));
  draw(sorted, n - picked.size);
  return [...picked];
}

/** Letter n-grams of the folded vocabulary, weighted by how many users carry the word they come from. */
export function fragmentWeights(vocabulary: Vocabulary, length: number): Counted[] {
  const weights = new Map<string, number>();
  const add = (text: string, count: number) => {
    for (const word of fold(text).split(/[^a-z]+/)) {
      for (let i = 0; i + length <= word.length; i += 1) {
        const gram = word.slice(i, i + length);
        weights.set(gram, (weights.get(gram) ?? 0) + count);
      }
    }
  };
  for (const list of [vocabulary.firstNames, vocabulary.lastNames, vocabulary.domains]) for (const { value, count } of list) add(value, count);
  return [...weights].map(([value, count]) => ({ value, count }));
}

/** Every letter sequence the vocabulary holds (folded words), to make sure a no-match term is none of them. */
function vocabularyText(vocabulary: Vocabulary): string {
  const words = [vocabulary.firstNames, vocabulary.lastNames, vocabulary.domains].flatMap((list) => list.map((c) => c.value));
  words.push(...vocabulary.people.flatMap((p) => [p.firstName, p.lastName, p.email]));
  // Words as they are, and as e-mail addresses spell them (apostrophes and spaces dropped: "N'Diaye" → 'ndiaye').
  return words.flatMap((w) => [fold(w), fold(w).replace(/['’ ]/g, '')]).join('|');
}

/** `n` strings of 2 to 6 letters found nowhere in the vocabulary (the database must still be asked), drawn with `seed`. */
export function noMatchCandidates(vocabulary: Vocabulary, n: number, seed = DEFAULT_SEED): string[] {
  const random = seededRandom(seed);
  const text = vocabularyText(vocabulary);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const found: string[] = [];
  for (let attempt = 0; found.length < n && attempt < n * 10_000; attempt += 1) {
    const length = 2 + (found.length % 5);
    let candidate = '';
    for (let i = 0; i < length; i += 1) candidate += letters[Math.floor(random() * letters.length)];
    if (!text.includes(candidate) && !found.includes(candidate)) found.push(candidate);
  }
  return found;
}

const upper = (text: string) => fold(text).toUpperCase();
const localPart = (email: string) => email.slice(0, email.lastIndexOf('@'));
/** A piece of a domain: its first label, or a word of it ('clinique', 'orange', 'chu-lyon'). */
function domainFragment(domain: string, random: () => number): string {
  const label = domain.split('.')[0]!;
  const words = label.split('-').filter((w) => w.length >= 3);
  return words.length > 1 && random() < 0.7 ? words[Math.floor(random() * words.length)]! : label;
}

/**
 * The terms: each kind's quota drawn from the vocabulary with `seed`, distinct ignoring case (the first kind
 * to draw a term keeps it). `noMatch`: terms checked to match nobody (noMatchCandidates checked by SQL).
 */
export function buildTerms(vocabulary: Vocabulary, noMatch: readonly string[], seed = DEFAULT_SEED, quotas: Readonly<Record<TermKind, number>> = TERM_QUOTAS): SearchTerm[] {
  const random = seededRandom(seed);
  const terms: SearchTerm[] = [];
  const taken = new Set<string>();
  const push = (kind: TermKind, values: Iterable<string>, want: number) => {
    let added = 0;
    for (const value of values) {
      if (added >= want) break;
      const term = value.trim();
      if (!term || taken.has(term.toLowerCase())) continue;
      taken.add(term.toLowerCase());
      terms.push({ term, kind });
      added += 1;
    }
  };
  const names = (list: readonly Counted[], kind: 'surname' | 'first-name') => {
    push(kind, commonAndRare(list, quotas[kind], random).map((c) => c.value), quotas[kind]);
    // Written without their accents, from the names that have some (then others if too few).
    const accented = list.filter((c) => hasAccent(c.value));
    const unaccented = `${kind}-unaccented` as const;
    push(unaccented, [...commonAndRare(accented, quotas[unaccented], random), ...commonAndRare(list, quotas[unaccented], random)].map((c) => fold(c.value)), quotas[unaccented]);
    const inUpper = `${kind}-upper` as const;
    push(inUpper, [...commonAndRare(accented, quotas[inUpper], random), ...commonAndRare(list, quotas[inUpper], random)].map((c) => upper(c.value)), quotas[inUpper]);
  };
  names(vocabulary.lastNames, 'surname');
  names(vocabulary.firstNames, 'first-name');

  const people = shuffled(vocabulary.people, random);
  push('full-name', people.map((p) => `${p.firstName} ${p.lastName}`.toLowerCase()), quotas['full-name']);
  push('email-local', shuffled(people, random).map((p) => localPart(p.email).toLowerCase()), quotas['email-local']);
  push('email', shuffled(people, random).map((p) => p.email.toLowerCase()), quotas.email);
  push('email-domain', commonAndRare(vocabulary.domains, quotas['email-domain'] * 2, random).map((c) => c.value.toLowerCase()), quotas['email-domain']);
  push('domain-fragment', commonAndRare(vocabulary.domains, quotas['domain-fragment'] * 3, random).map((c) => domainFragment(c.value.toLowerCase(), random)), quotas['domain-fragment']);
  for (const length of [1, 2, 3] as const) {
    const kind = `fragment-${length}` as const;
    push(kind, commonAndRare(fragmentWeights(vocabulary, length), quotas[kind] * 2, random).map((c) => c.value), quotas[kind]);
  }
  push('no-match', noMatch, quotas['no-match']);
  return terms;
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** `n` terms spread over the kinds (each kind in turn, drawn with `seed`): what bench:web types. */
export function sampleTerms(terms: readonly SearchTerm[], n: number, seed = DEFAULT_SEED): SearchTerm[] {
  const random = seededRandom(seed);
  const byKind = new Map<TermKind, SearchTerm[]>();
  for (const term of terms) byKind.set(term.kind, [...(byKind.get(term.kind) ?? []), term]);
  const queues = [...byKind.values()].map((list) => shuffled(list, random));
  const out: SearchTerm[] = [];
  while (out.length < n && queues.some((q) => q.length > 0)) {
    for (const queue of queues) if (out.length < n && queue.length > 0) out.push(queue.shift()!);
  }
  return out;
}
