// Command-line arguments of bench:seed and bench. Pure.
import { datasetSize, parseCount, REFERENCE_SIZE } from './dataset.ts';
import { databaseName } from './names.ts';

/** `--name value` or `--name=value` pairs and `--flag`s, checked against what a command accepts. */
function parse(argv: readonly string[], valued: readonly string[], flags: readonly string[]): Map<string, string | true> {
  const found = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    if (valued.includes(name)) {
      const value = eq >= 0 ? arg.slice(eq + 1) : argv[(i += 1)];
      if (value === undefined || value === '') throw new Error(`${name} needs a value`);
      found.set(name, value);
    } else if (flags.includes(name) && eq < 0) found.set(name, true);
    else throw new Error(`unknown argument '${arg}' (expected ${[...valued.map((v) => `${v} …`), ...flags].join(', ')})`);
  }
  return found;
}

export function parseSeedArgs(argv: readonly string[]): { users: number; force: boolean } {
  const args = parse(argv, ['--users'], ['--force']);
  const users = args.has('--users') ? parseCount(args.get('--users') as string) : REFERENCE_SIZE.users;
  datasetSize(users);
  return { users, force: args.has('--force') };
}

export interface BenchArgs {
  /** Data-set sizes to run, each on its own database; empty: the database at DATABASE_URL as it is. */
  sizes: number[];
  /** Seconds of load per scenario (and as many for its database floor). */
  duration: number;
  connections: number;
  /** Scenarios whose name contains one of these (all when empty). */
  only: string[];
  /** Seed again even when the database already holds the size. */
  reseed: boolean;
  force: boolean;
}

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const args = parse(argv, ['--sizes', '--duration', '--connections', '--only'], ['--reseed', '--force']);
  const list = (name: string) => ((args.get(name) as string | undefined) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const sizes = list('--sizes').map(parseCount);
  for (const size of sizes) datasetSize(size);
  const duration = Number(args.get('--duration') ?? 10);
  const connections = Number(args.get('--connections') ?? 32);
  if (!Number.isInteger(duration) || duration < 1) throw new Error('--duration: a whole number of seconds');
  if (!Number.isInteger(connections) || connections < 1) throw new Error('--connections: a whole number');
  return { sizes, duration, connections, only: list('--only'), reseed: args.has('--reseed'), force: args.has('--force') };
}

/** Refuses a database whose name does not say it is a benchmark one, unless forced. */
export function checkBenchDatabase(url: string | undefined, force: boolean): string {
  if (!url) throw new Error('DATABASE_URL is not set: the PostgreSQL database to fill, e.g. postgres://portail:portail@127.0.0.1:5432/portail_bench');
  const name = databaseName(url);
  if (!name.includes('bench') && !force) {
    throw new Error(`refusing to replace the content of '${name}': its name does not contain 'bench' (use --force if you really mean it)`);
  }
  return name;
}
