import { describe, expect, it } from 'vitest';
import { bulkMarkdown, parseBulkArgs, type BulkReport } from '../../bench/bulk-report.ts';

describe('bench:bulk', () => {
  it('reads its settings: 10,000 persons at most, slices, connections', () => {
    expect(parseBulkArgs([])).toEqual({ persons: 10_000, slice: 2, connections: 32, force: false, alone: false });
    expect(parseBulkArgs(['--persons', '2000', '--slice=1', '--connections', '8', '--force'])).toEqual({ persons: 2000, slice: 1, connections: 8, force: true, alone: false });
    expect(parseBulkArgs(['--alone'])).toMatchObject({ alone: true, force: false });
    expect(() => parseBulkArgs(['--persons', '10001'])).toThrow(/from 1 to 10000/);
    expect(() => parseBulkArgs(['--slice', '0'])).toThrow(/whole number/);
    expect(() => parseBulkArgs(['--size', '3'])).toThrow(/unknown argument/);
  });

  it("reports the job against the goal and each scenario's worst p95 during it beside its p95 before", () => {
    const report: BulkReport = {
      at: '2026-11-27T07:00:00.000Z',
      database: 'portail_bench',
      users: 1_000_000,
      persons: 10_000,
      cpus: 2,
      node: 'v24.21.0',
      jobSeconds: 24.5,
      succeeded: 10_000,
      refusals: 0,
      restoreSeconds: 20.1,
      rssPeakMb: 480,
      cpusBusy: 1.9,
      cpusOthers: 0.2,
      before: [{ scenario: 'users-list', p95: 40, rps: 500, errors: 0 }],
      during: [
        { scenario: 'users-list', p95: 60, rps: 300, errors: 0 },
        { scenario: 'users-list', p95: 75.25, rps: 280, errors: 0 },
        { scenario: 'journal-list', p95: 30, rps: 400, errors: 0 },
      ],
    };
    const text = bulkMarkdown(report);
    expect(text).toContain('10,000 persons deactivated in 24.5 s (408 a second; goal 30 s for 10,000: met)');
    expect(text).toContain('| users-list | 40.0 | 75.3 |');
    expect(text).toContain('| journal-list | – | 30.0 |');
    expect(bulkMarkdown({ ...report, jobSeconds: 31 })).toContain('missed');
    expect(text).toContain('refused, while the other scenarios ran.');
    const alone = bulkMarkdown({ ...report, before: [], during: [], alone: true, loadAverage: [3.5, 4.25] });
    expect(alone).toContain('refused, alone (no other load from the benchmark).');
    expect(alone).toContain('- Machine load average (1 min): 3.50 at the job\'s start, 4.25 at its end.');
  });
});
