import { describe, expect, it } from 'vitest';
import { buildTerms, caseOnly, commonAndRare, fold, fragmentWeights, MatchCounter, matches, noMatchCandidates, sampleTerms, seededRandom, TERM_QUOTAS, type Vocabulary } from '../../bench/search-terms.ts';

const FIRST = ['Hélène', 'Sophie', 'Éric', 'Jean', 'Chloé', 'Marie', 'Zoé', 'Noël', 'Agnès', 'Léa', 'Inès', 'Paul', 'Jérôme', 'Anaïs'];
const LAST = ['Martin', 'Lefèvre', 'Dupré', 'Bernard', 'Le Gall', "N'Diaye", 'Cœur', 'Gérard', 'Petit', 'Moreau', 'Kervella', 'Noël', 'Prévost', 'Rousseau', 'Lévêque', 'Maréchal', 'Clément', 'Faure'];
const DOMAINS = ['gmail.com', 'orange.fr', 'clinique-les-vignes-agde.fr', 'ehpad-le-clos-fleuri.fr', 'ch-trois-vallees.fr', 'opco-sante.fr'];

/** A small data set shaped like the benchmark's: counts falling with the rank, e-mails from the names. */
function vocabulary(): Vocabulary {
  const slug = (s: string) => fold(s).replace(/['’ ]/g, '');
  const people = Array.from({ length: 400 }, (_, i) => {
    const firstName = FIRST[i % FIRST.length]!;
    const lastName = LAST[(i * 7) % LAST.length]!;
    return { firstName, lastName, email: `${slug(firstName)}.${slug(lastName)}${i}@${DOMAINS[i % DOMAINS.length]}` };
  });
  return {
    firstNames: FIRST.map((value, i) => ({ value, count: 1_000 - i * 50 })),
    lastNames: LAST.map((value, i) => ({ value, count: 2_000 - i * 100 })),
    domains: DOMAINS.map((value, i) => ({ value, count: 500 - i * 60 })),
    people,
  };
}

describe('the search benchmark terms', () => {
  it('folds case, accents and ligatures as the search must ignore them', () => {
    expect(fold('Hélène')).toBe('helene');
    expect(fold('LEFÈVRE')).toBe('lefevre');
    expect(fold('Cœur')).toBe('coeur');
    expect(fold('Lætitia')).toBe('laetitia');
    expect(fold('Anaïs Noël')).toBe('anais noel');
    expect(fold('jean.martin@Orange.fr')).toBe('jean.martin@orange.fr');
  });

  it("matches a folded substring of 'First Last' or of the e-mail, and nothing across them", () => {
    const user = { firstName: 'Hélène', lastName: 'Lefèvre', email: 'h.lefevre@gmail.com' };
    for (const term of ['helene', 'hélène lef', 'e lefevre', 'LEFEVRE', 'gmail.c', 'h.l', 'e l']) expect(matches(fold(term), user)).toBe(true);
    expect(matches('lefevreh', user)).toBe(false);
    expect(matches('lefevre h', user)).toBe(false);
    expect(matches(fold('Œ'), { firstName: 'Zoé', lastName: 'Cœur', email: 'z@x.fr' })).toBe(true);
  });

  it('counts each term over users given one at a time', () => {
    const counter = new MatchCounter(['helene', 'Martin', 'qzx', ' gmail ']);
    counter.add({ firstName: 'Hélène', lastName: 'Martin', email: 'helene.martin@gmail.com' });
    counter.add({ firstName: 'Paul', lastName: 'Martinez', email: 'paul@orange.fr' });
    counter.add({ firstName: 'HÉLÈNE', lastName: 'Petit', email: 'hp@gmail.com' });
    expect(counter.counts()).toEqual([2, 2, 0, 2]);
    const accentsKept = new MatchCounter(['helene', 'HÉLÈNE'], caseOnly);
    accentsKept.add({ firstName: 'Hélène', lastName: 'Martin', email: 'h.martin@gmail.com' });
    accentsKept.add({ firstName: 'Helene', lastName: 'Petit', email: 'hp@gmail.com' });
    expect(accentsKept.counts()).toEqual([1, 1]);
  });

  it('draws the same numbers from the same seed, others from another', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const first = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(Array.from({ length: 5 }, seededRandom(8))).not.toEqual(first);
  });

  it('takes half of the common entries and the rest among all', () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ value: `w${i}`, count: 100 - i }));
    const picked = commonAndRare(items, 10, seededRandom(1));
    expect(new Set(picked).size).toBe(10);
    expect(picked.slice(0, 5).every((p) => p.count > 90)).toBe(true);
  });

  it('weights letter fragments by the users carrying them, on folded words', () => {
    const weights = new Map(fragmentWeights({ firstNames: [{ value: 'Éa', count: 3 }], lastNames: [{ value: 'Ea-b', count: 2 }], domains: [], people: [] }, 2).map((c) => [c.value, c.count]));
    expect(weights).toEqual(new Map([['ea', 5]]));
  });

  it('offers no-match candidates of 2 to 6 letters found nowhere in the vocabulary, apostrophes dropped included', () => {
    const v = vocabulary();
    const candidates = noMatchCandidates(v, 20, 3);
    expect(candidates).toHaveLength(20);
    expect(new Set(candidates.map((c) => c.length))).toEqual(new Set([2, 3, 4, 5, 6]));
    const counter = new MatchCounter(candidates);
    for (const person of v.people) counter.add(person);
    expect(counter.counts().every((n) => n === 0)).toBe(true);
    expect(candidates.some((c) => 'ndiaye'.includes(c))).toBe(false);
    expect(noMatchCandidates(v, 20, 3)).toEqual(candidates);
  });

  it('builds at least 200 distinct terms of every kind, repeatably, with accents and without', () => {
    const v = vocabulary();
    const terms = buildTerms(v, ['qzx', 'zq', 'qzx'], 11);
    const again = buildTerms(v, ['qzx', 'zq', 'qzx'], 11);
    expect(again).toEqual(terms);
    expect(buildTerms(v, ['qzx', 'zq'], 12)).not.toEqual(terms);
    const lower = terms.map((t) => t.term.toLowerCase());
    expect(new Set(lower).size).toBe(terms.length);
    const of = (kind: string) => terms.filter((t) => t.kind === kind).map((t) => t.term);
    expect(of('no-match')).toEqual(['qzx', 'zq']);
    expect(of('surname-unaccented').every((t) => t === fold(t))).toBe(true);
    expect(of('surname-unaccented')).toContain('lefevre');
    expect(of('surname-upper').every((t) => t === fold(t).toUpperCase())).toBe(true);
    expect(of('first-name-unaccented')).toContain('helene');
    expect(of('fragment-1').every((t) => /^[a-z]$/.test(t))).toBe(true);
    expect(of('fragment-2').every((t) => /^[a-z]{2}$/.test(t))).toBe(true);
    expect(of('fragment-3').every((t) => /^[a-z]{3}$/.test(t))).toBe(true);
    expect(of('email').every((t) => v.people.some((p) => p.email === t))).toBe(true);
    expect(of('email-local').every((t) => !t.includes('@'))).toBe(true);
    expect(of('full-name').every((t) => / /.test(t))).toBe(true);
    expect(of('email-domain').every((t) => DOMAINS.includes(t))).toBe(true);
    // Upper-case names whose folded form another kind took are left out (terms are distinct ignoring case).
    expect(of('surname-upper').every((t) => !of('surname-unaccented').includes(t.toLowerCase()))).toBe(true);
    expect(of('surname')).toHaveLength(Math.min(TERM_QUOTAS.surname, LAST.length));
  });

  it('reaches 200 terms on a vocabulary as large as the benchmark data set', () => {
    const many = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ value: `${prefix}${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26) % 26)}é`, count: n - i }));
    const v: Vocabulary = {
      firstNames: many('Fir', 150),
      lastNames: many('Las', 300),
      domains: many('dom', 200).map((d) => ({ ...d, value: `${fold(d.value)}-sante.fr` })),
      people: Array.from({ length: 500 }, (_, i) => ({ firstName: `Fir${i}`, lastName: `Las${i}`, email: `fir.las${i}@dom${i}.fr` })),
    };
    const terms = buildTerms(v, Array.from({ length: 12 }, (_, i) => `zq${'x'.repeat(i % 4)}${i}`));
    expect(terms.length).toBeGreaterThanOrEqual(200);
    for (const kind of Object.keys(TERM_QUOTAS)) expect(terms.filter((t) => t.kind === kind).length, kind).toBeGreaterThan(0);
  });

  it('samples terms across the kinds, repeatably', () => {
    const terms = buildTerms(vocabulary(), ['qzx', 'zq'], 11);
    const sample = sampleTerms(terms, 20, 5);
    expect(sample).toHaveLength(20);
    expect(sampleTerms(terms, 20, 5)).toEqual(sample);
    expect(new Set(sample.map((t) => t.kind))).toEqual(new Set(terms.map((t) => t.kind)));
    expect(sampleTerms(terms, 1_000, 5)).toHaveLength(terms.length);
  });
});
