import { describe, expect, it } from 'vitest';
import { consoleSearchReport, markdownSearchReport, median, summarizeCombos, summarizeTerms, type ComboResult, type SearchReport, type TermResult } from '../../bench/search-report.ts';

const term = (t: string, kind: TermResult['kind'], ms: number, total: number, expected = total, status = 200, caseOnly = total): TermResult => ({ term: t, kind, ms, status, total, expected, caseOnly });

const TERMS: TermResult[] = [
  term('Martin', 'surname', 700, 12_000),
  term('helene', 'first-name-unaccented', 20, 9_000, 11_000),
  term('a', 'fragment-1', 1_200, 900_000),
  term('qzx', 'no-match', 15, 0),
  term('zq', 'no-match', 1_100, 0),
  term('jean.martin@orange.fr', 'email', 8, 1),
  term('lefevre', 'surname-unaccented', 9, 10, 12, 200, 11),
  term('broken', 'surname', 30, Number.NaN, 3, 500),
];

describe('the search benchmark report', () => {
  it('takes the median of the baseline', () => {
    expect(median([20, 5, 7, 30, 6, 8, 9])).toBe(8);
  });

  it('summarizes the first requests against 5 × page 1, by kind, with the totals that differ and the failures', () => {
    const s = summarizeTerms(TERMS, 20, 3);
    expect(s.p50).toBe(20);
    expect(s.max).toBe(1_200);
    // Above 100 ms: Martin, a, zq; and the failed request.
    expect(s.aboveGoal).toBe(4);
    expect(s.slowest.map((t) => t.term)).toEqual(['a', 'zq', 'Martin']);
    expect(s.perKind.find((k) => k.kind === 'no-match')).toEqual({ kind: 'no-match', terms: 2, p50: 15, max: 1_100 });
    expect(s.perKind.find((k) => k.kind === 'surname')).toEqual({ kind: 'surname', terms: 2, p50: 700, max: 700 });
    expect(s.mismatches.map((t) => t.term)).toEqual(['helene', 'lefevre']);
    // 'helene' is what a search keeping accents finds; 'lefevre' is not even that.
    expect(s.unexplained.map((t) => t.term)).toEqual(['lefevre']);
    expect(s.failures.map((t) => t.term)).toEqual(['broken']);
  });

  it('puts failed combinations first among the slowest', () => {
    const combo = (ms: number, status = 200): ComboResult => ({ term: 'le', kind: 'fragment-2', filter: 'SIREN', sort: 'name', order: 'asc', page: 1, firstOfFilter: true, ms, status, total: 10 });
    const c = summarizeCombos([combo(5), combo(300), combo(2, 500), combo(40)], 10);
    expect(c.requests).toBe(4);
    expect(c.aboveGoal).toBe(2);
    expect(c.slowest.map((r) => r.ms)).toEqual([2, 300, 40, 5]);
  });

  it('writes the figures, the slowest terms and every mismatch', () => {
    const run = {
      users: 1_000_000,
      label: '1m',
      database: 'portail_bench',
      baselineSamples: [20, 21, 19, 22, 20, 18, 25],
      baselineMs: 20,
      filters: { siren: '123456782', siret: '12345678200011', role: 'GESTIONNAIRE', organizationAdmin: 'admin.clinique@portail.test' },
      terms: TERMS,
      combos: [],
      mix: { requests: 100, errors: 0, seconds: 10, rps: 10, p50: 30, p95: 900, p99: 1_000, max: 1_100, statuses: { 200: 100 }, connections: 32, duration: 10, terms: TERMS.length },
      load: { before: [1.2, 1, 1], after: [2.5, 1.5, 1] },
      seconds: 300,
    };
    const report: SearchReport = {
      generatedAt: '2026-11-27T09:00:00.000Z',
      machine: '2 × CPU, 24 GB',
      commit: 'abc1234',
      settings: { seed: 20, connections: 32, duration: 10, poolSize: 32, node: 'Node v24', postgres: '15', request: 'GET /api/v2/users?…', exactness: 'every user' },
      runs: [run, { ...run, users: 10_000, label: '10k', database: 'portail_bench_10k', warmUpSearches: 20, mix: { ...run.mix, warmUp: 2 } }],
    };
    const md = markdownSearchReport(report);
    expect(md).toContain('Load average before 1.20, 1.00, 1.00, after 2.50, 1.50, 1.00');
    expect(md).toContain('**4** above 5× page 1; 1 failed');
    expect(md).toContain("| 'a' | fragment-1 | 900,000 | 1200 | 60.0 |");
    expect(md).toContain("| 'helene' | first-name-unaccented | 9,000 | 11,000 | 9,000 |");
    expect(md).toContain('2 of 7 terms differ from the independent count (case and accents ignored); 1 of them differ from the case-only count too');
    expect(md).toContain('0 errors (100 × HTTP 200;');
    expect(md).toContain('| 1,000,000 | 20.0 |');
    expect(md).toContain('p95 **900**');
    // The warm-up is said where it was made: runs before it had none.
    expect(md).toContain('(32 connections, 10 s after a 2 s warm-up, 8 terms in turn)');
    expect(md).toContain('(32 connections, 10 s, 8 terms in turn)');
    expect(md).toContain('**8 terms, each first request alone** (after 20 unmeasured searches of other terms): p50');
    expect(md).toContain('**8 terms, each first request alone**: p50');
    expect(consoleSearchReport(report)).toContain('1m: page 1 20.0 ms | 8 terms');
  });
});
