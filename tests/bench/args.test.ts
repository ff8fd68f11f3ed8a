import { describe, expect, it } from 'vitest';
import { checkBenchDatabase, parseBenchArgs, parseSeedArgs } from '../../bench/args.ts';
import { databaseName, withDatabase } from '../../bench/names.ts';

describe('bench:seed and bench arguments', () => {
  it('reads the seed size, a million by default', () => {
    expect(parseSeedArgs([])).toEqual({ users: 1_000_000, force: false });
    expect(parseSeedArgs(['--users', '100k'])).toEqual({ users: 100_000, force: false });
    expect(parseSeedArgs(['--users=10000', '--force'])).toEqual({ users: 10_000, force: true });
    expect(() => parseSeedArgs(['--users'])).toThrow(/needs a value/);
    expect(() => parseSeedArgs(['--users', '10'])).toThrow(/at least/);
    expect(() => parseSeedArgs(['--size', '10'])).toThrow(/unknown argument/);
  });

  it('reads the benchmark settings: sizes, seconds, connections, scenarios', () => {
    expect(parseBenchArgs([])).toEqual({ sizes: [], duration: 10, connections: 32, only: [], reseed: false, force: false });
    expect(parseBenchArgs(['--sizes', '10000,100k,1m', '--duration=5', '--only', 'users-,invitation-detail', '--reseed'])).toEqual({
      sizes: [10_000, 100_000, 1_000_000],
      duration: 5,
      connections: 32,
      only: ['users-', 'invitation-detail'],
      reseed: true,
      force: false,
    });
    expect(() => parseBenchArgs(['--duration', '0'])).toThrow(/duration/);
    expect(() => parseBenchArgs(['--connections', 'many'])).toThrow(/connections/);
  });

  it("refuses to replace a database whose name does not say 'bench', unless forced", () => {
    expect(checkBenchDatabase('postgres://u:p@127.0.0.1:5432/portail_bench', false)).toBe('portail_bench');
    expect(() => checkBenchDatabase('postgres://u:p@127.0.0.1:5432/portail', false)).toThrow(/does not contain 'bench'.*--force/);
    expect(checkBenchDatabase('postgres://u:p@127.0.0.1:5432/portail', true)).toBe('portail');
    expect(() => checkBenchDatabase(undefined, true)).toThrow(/DATABASE_URL/);
  });

  it('names the database of each size after the given one', () => {
    const url = 'postgres://portail:secret@127.0.0.1:5432/portail_bench?sslmode=disable';
    expect(databaseName(url)).toBe('portail_bench');
    expect(withDatabase(url, 'portail_bench_10k')).toBe('postgres://portail:secret@127.0.0.1:5432/portail_bench_10k?sslmode=disable');
  });
});
