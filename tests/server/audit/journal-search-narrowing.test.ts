// Which strings of a journal search the trigram index is asked for (audit.model.ts searchNarrowing), and whether a page is gathered or walked (gathersPage). Pure.
import { describe, expect, it } from 'vitest';
import { GATHER_BELOW, gathersPage, searchNarrowing } from '../../../server/features/audit/audit.model.ts';

/** Counts as peopleGramCounts answers them: each string of three characters with where it starts, rarest first. */
function counted(term: string, counts: Record<string, number>) {
  const grams = [...term].slice(0, -2).map((_, i) => [...term].slice(i, i + 3).join(''));
  return grams.map((gram, at) => ({ gram, at, n: counts[gram] ?? 0 })).sort((a, b) => a.n - b.n || a.at - b.at);
}

describe('the strings of a journal search asked of the trigram index', () => {
  it("takes the rarest string of each word, the rarest words first, up to three", () => {
    const term = 'virginie.dubois@ch-les-chenes-la-ciotat.fr';
    const counts = { cio: 708, iot: 708, tat: 800, ota: 900, dub: 1641, ubo: 1641, vir: 1349, che: 7453 };
    const all = { ...Object.fromEntries(counted(term, {}).map((c) => [c.gram, 50_000])), ...counts };
    expect(searchNarrowing(term, counted(term, all))).toEqual(['cio', 'vir', 'dub']);
    expect(searchNarrowing('noel faure', counted('noel faure', { noe: 10, oel: 20, fau: 30, aur: 5, ure: 40 }))).toEqual(['aur', 'noe']);
  });

  it('never asks for a string holding a space, a dot, an @ or a hyphen: the index reads those as the ends of words', () => {
    const term = 'a.b@c-d e';
    expect(searchNarrowing(term, counted(term, {}))).toEqual([]);
    expect(searchNarrowing('x@abc', counted('x@abc', { 'x@a': 0, '@ab': 0, abc: 10 }))).toEqual(['abc']);
  });

  it('takes a second string of a single word when it does not overlap the first, and none below three characters', () => {
    expect(searchNarrowing('faure', counted('faure', { fau: 5, aur: 3, ure: 9 }))).toEqual(['aur']);
    expect(searchNarrowing('martin', counted('martin', { mar: 5, art: 9, rti: 7, tin: 8 }))).toEqual(['mar', 'tin']);
    expect(searchNarrowing('fa', counted('fa', {}))).toEqual([]);
  });

  it('does not take the same string twice', () => {
    expect(searchNarrowing('nannan', counted('nannan', { nan: 1, ann: 50, nna: 60 }))).toEqual(['nan']);
  });
});

describe('whether a page of the journal is gathered or walked newest first (audit.model.ts gathersPage)', () => {
  it('walks a term many entries of a small journal hold, for its first pages only', () => {
    // 'martin' on the 1M benchmark's journal: 4,797 entries of 80,514.
    expect(gathersPage({ total: 4_797, everyone: 80_514, reach: 10 })).toBe(false);
    expect(gathersPage({ total: 4_797, everyone: 80_514, reach: 70 })).toBe(false);
    expect(gathersPage({ total: 4_797, everyone: 80_514, reach: 80 })).toBe(true);
  });

  it('gathers a rare term, and any term of at most GATHER_BELOW entries in a journal of millions', () => {
    expect(gathersPage({ total: 173, everyone: 80_514, reach: 10 })).toBe(true);
    expect(gathersPage({ total: GATHER_BELOW, everyone: 10_000_000, reach: 10 })).toBe(true);
    expect(gathersPage({ total: 1, everyone: 1, reach: 10 })).toBe(true);
  });

  it('never gathers above GATHER_BELOW entries, however far the page', () => {
    expect(gathersPage({ total: GATHER_BELOW + 1, everyone: 10_000_000, reach: 10 })).toBe(false);
    expect(gathersPage({ total: GATHER_BELOW + 1, everyone: 10_000_000, reach: GATHER_BELOW })).toBe(false);
  });
});
