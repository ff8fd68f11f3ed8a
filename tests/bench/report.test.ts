import { describe, expect, it } from 'vitest';
import { checkScenario, consoleReport, floorBudget, growthRows, markdownReport, markdownTable, missed, textTable, type BenchReport, type ScenarioResult, type SizeRun } from '../../bench/report.ts';
import { percentile, summarize, type Measure } from '../../bench/stats.ts';

const measure = (p50: number, p95: number, rps: number, errors = 0): Measure => ({ requests: 1000 + errors, errors, seconds: 10, rps, p50, p95, p99: p95 * 1.2, max: p95 * 2 });
const scenario = (overrides: Partial<ScenarioResult> = {}): ScenarioResult => ({
  name: 'users-list',
  title: 'Users list, page 1',
  kind: 'read',
  variants: 1,
  statements: 5,
  answer: 'total 1,000,000',
  http: measure(20, 40, 1500),
  db: measure(12, 20, 2600),
  firstRequestDbMs: 1.2,
  rssMb: 180,
  machine: { busy: 1.9, others: 0.1 },
  ...overrides,
});
const httpFloor = measure(2, 4, 16_000);
const run = (users: number, label: string, scenarios: ScenarioResult[]): SizeRun => ({
  users,
  label,
  database: `portail_bench_${label}`,
  counts: { users, sirens: users / 20, sirets: (users * 3) / 20, assignments: users * 2, invitations: users / 5, pending: users / 33 },
  httpFloor,
  scenarios,
  load: { before: 0.4, after: 1.1, cpus: 2 },
});

describe('latency summaries', () => {
  it('takes nearest-rank percentiles of the successful requests and counts the failures apart', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(sorted, 0.5), percentile(sorted, 0.95), percentile(sorted, 0.99), percentile(sorted, 1)]).toEqual([50, 95, 99, 100]);
    expect(percentile([], 0.5)).toBeNaN();
    const summary = summarize([3, 1, 2, 4], 1, 2);
    expect(summary).toMatchObject({ requests: 5, errors: 1, rps: 2, p50: 2, max: 4 });
  });
});

describe('the goals of issue 8', () => {
  it('meets every goal of a fast, error-free users list', () => {
    expect(missed(checkScenario(scenario(), httpFloor))).toEqual([]);
  });

  it('says which goal a read misses and by how much', () => {
    const slow = scenario({ http: measure(60, 120, 400, 3), rssMb: 320 });
    expect(missed(checkScenario(slow, httpFloor)).map((m) => m.goal)).toEqual(['p95 ≤ 50 ms', 'no error', '≥ 1,000 req/s', 'p50 ≤ 1.5 × DB floor + HTTP floor', 'memory ≤ 300 MB']);
    expect(missed(checkScenario(slow, httpFloor))[0]!.detail).toBe('p95 120 ms');
  });

  it('holds the p50 to 1.5 × the database floor plus the HTTP floor', () => {
    expect(floorBudget(scenario(), httpFloor)).toBe(1.5 * 12 + 2);
    expect(missed(checkScenario(scenario({ http: measure(20.1, 40, 1500) }), measure(0.1, 1, 1)))[0]!.goal).toBe('p50 ≤ 1.5 × DB floor + HTTP floor');
  });

  it('gives writes 100 ms at p95 and no throughput goal', () => {
    const write = scenario({ name: 'invitation-approve', title: 'Approve', kind: 'write', http: measure(40, 90, 300), db: measure(30, 60, 400) });
    expect(missed(checkScenario(write, httpFloor))).toEqual([]);
    expect(missed(checkScenario({ ...write, http: measure(40, 101, 300) }, httpFloor)).map((m) => m.goal)).toEqual(['p95 ≤ 100 ms']);
  });
});

describe('tables', () => {
  it('writes Markdown tables with escaped cells and aligned text tables', () => {
    expect(markdownTable(['a', 'b'], [['1', 'x|y']])).toBe('| a | b |\n|---|---|\n| 1 | x\\|y |');
    expect(textTable(['name', 'ms', 'goals'], [['users', '1.5', 'all met'], ['deep page', '12', 'MISSED']])).toBe(
      'name        ms  goals\n---------  ---  -------\nusers      1.5  all met\ndeep page   12  MISSED',
    );
  });

  it('shows how each read scenario grows from the smallest size to the largest', () => {
    const runs = [run(1_000_000, '1m', [scenario({ http: measure(30, 45, 1100) })]), run(10_000, '10k', [scenario()])];
    const growth = growthRows(runs);
    expect(growth.headers).toEqual(['scenario', '10k p50 / p95 ms, req/s', '1m p50 / p95 ms, req/s', 'p50 ×, 10k → 1m']);
    expect(growth.rows).toEqual([['Users list, page 1', '20.0 / 40.0, 1,500', '30.0 / 45.0, 1,100', '× 1.5']]);
  });

  it('prints and writes one table per size, the HTTP floor first, and the growth', () => {
    const report: BenchReport = {
      generatedAt: '2026-01-01T00:00:00.000Z',
      settings: { connections: 32, duration: 10, poolSize: 32, node: 'v20', postgres: '15' },
      runs: [run(10_000, '10k', [scenario()]), run(1_000_000, '1m', [scenario({ http: measure(70, 90, 900) })])],
    };
    const markdown = markdownReport(report);
    expect(markdown).toContain('## 10k: 10,000 users');
    expect(markdown).toContain('| HTTP floor: GET /healthz | 2.00 | 4.00 |');
    expect(markdown).toContain('MISSED: p95 ≤ 50 ms (p95 90.0 ms)');
    expect(markdown).toContain('## Growth of the read scenarios');
    expect(consoleReport(report)).toContain('Growth of the read scenarios');
  });
});
