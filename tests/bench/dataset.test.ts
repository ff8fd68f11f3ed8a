import { describe, expect, it } from 'vitest';
import { isValidSiren, isValidSiret, luhnCheckDigit, makeSiret } from '../../rules/codes.ts';
import { asciiSlug, coprimeMultiplier, datasetSize, LA_POSTE_PAYLOAD, MIN_USERS, parseCount, sirenPayload, sizeLabel, weightedSlots } from '../../bench/dataset.ts';

describe('benchmark data set sizes', () => {
  it('scales every table from the number of users, the reference being a million', () => {
    expect(datasetSize(1_000_000)).toEqual({ users: 1_000_000, sirens: 50_000, sirets: 150_000, assignments: 2_000_000, invitations: 200_000 });
    expect(datasetSize(10_000)).toEqual({ users: 10_000, sirens: 500, sirets: 1_500, assignments: 20_000, invitations: 2_000 });
    expect(datasetSize(2_500)).toEqual({ users: 2_500, sirens: 125, sirets: 375, assignments: 5_000, invitations: 500 });
  });

  it('refuses a size too small to hold the demo data, or not a whole number', () => {
    expect(() => datasetSize(MIN_USERS - 1)).toThrow(/at least/);
    expect(() => datasetSize(10_000.5)).toThrow();
  });

  it('reads counts as people write them and names sizes shortly', () => {
    expect(parseCount('1000000')).toBe(1_000_000);
    expect(parseCount('1_000_000')).toBe(1_000_000);
    expect(parseCount('100k')).toBe(100_000);
    expect(parseCount('1M')).toBe(1_000_000);
    expect(parseCount('1e6')).toBe(1_000_000);
    expect(() => parseCount('lots')).toThrow(/not a number/);
    expect([10_000, 100_000, 1_000_000, 2_500_000, 1_500].map(sizeLabel)).toEqual(['10k', '100k', '1m', '2.5m', '1500']);
  });
});

describe('weighted lookup slots', () => {
  it('gives each entry its share of the slots, rounding by largest remainders', () => {
    const slots = weightedSlots([3, 1], 8);
    expect(slots).toEqual([0, 0, 0, 0, 0, 0, 1, 1]);
    const counts = (list: number[]) => list.reduce((m, i) => m.set(i, (m.get(i) ?? 0) + 1), new Map<number, number>());
    const thirds = counts(weightedSlots([1, 1, 1], 100));
    expect([...thirds.values()].sort()).toEqual([33, 33, 34]);
    expect(weightedSlots([5, 0, 5], 10)).not.toContain(1);
  });

  it('refuses weights that cannot be drawn from', () => {
    expect(() => weightedSlots([0, 0], 10)).toThrow();
    expect(() => weightedSlots([1, -1], 10)).toThrow();
  });
});

describe('SIREN and SIRET numbers of the data set', () => {
  it('numbers distinct 8-digit payloads, never La Poste, each with a Luhn-valid SIREN and SIRETs', () => {
    const seen = new Set<string>();
    for (let candidate = 1; candidate <= 20_000; candidate += 1) {
      const payload = sirenPayload(candidate);
      expect(payload).toMatch(/^[1-9]\d{7}$/);
      seen.add(payload);
      const siren = `${payload}${luhnCheckDigit(payload)}`;
      expect(isValidSiren(siren)).toBe(true);
      if (candidate % 1_000 === 0) expect(isValidSiret(makeSiret(siren, candidate % 9_999))).toBe(true);
    }
    expect(seen.size).toBe(20_000);
    expect(seen.has(LA_POSTE_PAYLOAD)).toBe(false);
  });

  it('picks a multiplier coprime with the number of people, so that invitations never share a person', () => {
    for (const n of [999_774, 99_774, 9_774, 7_919, 7_919 * 7_927]) {
      const m = coprimeMultiplier(n);
      const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
      expect(gcd(m, n)).toBe(1);
    }
    const n = 9_774;
    const m = coprimeMultiplier(n);
    const persons = new Set(Array.from({ length: n }, (_, i) => (i * m + 1) % n));
    expect(persons.size).toBe(n);
  });

  it('writes names as mail addresses and domains do', () => {
    expect(asciiSlug('Lefèvre')).toBe('lefevre');
    expect(asciiSlug('Le Gall')).toBe('le-gall');
    expect(asciiSlug("N'Diaye")).toBe('ndiaye');
    expect(asciiSlug('Maison d’accueil spécialisée')).toBe('maison-daccueil-specialisee');
    expect(asciiSlug('Œuvre  Sœurs ')).toBe('oeuvre-soeurs');
  });
});
