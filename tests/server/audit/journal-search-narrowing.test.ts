// Which strings of a journal search the trigram index is asked for (audit.model.ts searchNarrowing). Pure.
import { describe, expect, it } from 'vitest';
import { searchNarrowing } from '../../../server/features/audit/audit.model.ts';

/** Counts as peopleGramCounts answers them: each string of three characters with where it starts, rarest first. */
function counted(term: string, counts: Record<string, number>) {
  const grams = [...term].slice(0, -2).map((_, i) => [...term].slice(i, i + 3).join(''));
  return grams.map((gram, at) => ({ gram, at, n: counts[gram] ?? 0 })).sort((a, b) => a.n - b.n || a.at - b.at);
}

describe('the strings of a journal search asked of the trigram index', () => {
  it('takes the rarest, then the rarest that does not overlap it', () => {
    const term = 'virginie.dubois@ch-les-chenes-la-ciotat.fr';
    const counts = { cio: 708, iot: 708, ota: 900, dub: 1641, ubo: 1641, vir: 1349, che: 7453 };
    expect(searchNarrowing(counted(term, { ...Object.fromEntries(counted(term, {}).map((c) => [c.gram, 50_000])), ...counts }))).toEqual(['cio', 'vir']);
  });

  it('never asks for a string holding a space, a dot, an @ or a hyphen: the index reads those as the ends of words', () => {
    const term = 'a.b@c-d e';
    expect(searchNarrowing(counted(term, {}))).toEqual([]);
    expect(searchNarrowing(counted('x@abc', { 'x@a': 0, '@ab': 0, abc: 10 }))).toEqual(['abc']);
  });

  it('takes one string when every other overlaps it, and none below three characters', () => {
    expect(searchNarrowing(counted('faure', { fau: 5, aur: 3, ure: 9 }))).toEqual(['aur']);
    expect(searchNarrowing(counted('martin', { mar: 5, art: 9, rti: 7, tin: 8 }))).toEqual(['mar', 'tin']);
    expect(searchNarrowing(counted('fa', {}))).toEqual([]);
  });

  it('does not take the same string twice', () => {
    expect(searchNarrowing(counted('nannan', { nan: 1, ann: 50, nna: 60 }))).toEqual(['nan']);
  });
});
