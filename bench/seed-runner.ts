// Fills a database with the benchmark data set: migrations (the server's own code), the demo seed, then
// the set-based steps of seed-sql.ts on one session, then VACUUM ANALYZE. Shared by bench:seed and bench.
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { seedDemoData } from '../server/seed/seed.ts';
import { datasetSize, type DatasetSize } from './dataset.ts';
import { databaseName } from './names.ts';
import { benchPlan, seedSteps, type DemoCounts } from './seed-sql.ts';

/** One database session: temporary tables and functions live as long as it does. */
export interface SeedSession {
  run(sql: string, params?: unknown[]): Promise<void>;
  rows<T extends object>(sql: string, params?: unknown[]): Promise<T[]>;
}

export type Log = (line: string) => void;

/** Bumped when the data set changes shape: a database seeded by another version is seeded again. */
export const SEED_VERSION = 1;

export interface SeedSummary {
  size: DatasetSize;
  counts: { users: number; sirens: number; sirets: number; assignments: number; invitations: number; pending: number };
  seconds: number;
}

async function demoCounts(session: SeedSession): Promise<DemoCounts> {
  const [row] = await session.rows<{ users: number; sirens: number; sirets: number; invitations: number }>(
    `select (select count(*)::int from users) as users,
            (select count(*)::int from organizations where type = 'SIREN') as sirens,
            (select count(*)::int from organizations where type = 'SIRET') as sirets,
            (select count(*)::int from invitations) as invitations`,
  );
  return row!;
}

export async function countRows(session: SeedSession): Promise<SeedSummary['counts']> {
  const [row] = await session.rows<SeedSummary['counts']>(
    `select (select count(*)::int from users) as users,
            (select count(*)::int from organizations where type = 'SIREN') as sirens,
            (select count(*)::int from organizations where type = 'SIRET') as sirets,
            (select count(*)::int from role_assignments) as assignments,
            (select count(*)::int from invitations) as invitations,
            (select count(*)::int from invitations where status = 'PENDING') as pending`,
  );
  return row!;
}

/** The bench rows on a migrated database holding the demo data (and nothing else). */
export async function loadBenchData(session: SeedSession, users: number, options: { fastLoad: boolean; log: Log }): Promise<void> {
  const plan = benchPlan(datasetSize(users), await demoCounts(session));
  for (const step of seedSteps(plan, { fastLoad: options.fastLoad })) {
    const started = performance.now();
    await session.run(step.sql, step.params);
    if (!step.label.startsWith('lookup')) options.log(`  ${step.label.padEnd(30)} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** Replaces everything in the PostgreSQL database at `url` with the benchmark data set of `users` users. */
export async function seedBenchDatabase(url: string, users: number, log: Log): Promise<SeedSummary> {
  const size = datasetSize(users);
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const session: SeedSession = {
    async run(sql, params) {
      await (params ? client.query(sql, params) : client.query(sql));
    },
    async rows<T extends object>(sql: string, params?: unknown[]) {
      return (await (params ? client.query(sql, params) : client.query(sql))).rows as T[];
    },
  };
  try {
    log(`  emptying ${databaseName(url)}`);
    await session.run('drop schema if exists public cascade; create schema public');
    let handle: DatabaseHandle | null = await openDatabase({ databaseUrl: url, poolMax: 2 });
    try {
      const { applied } = await migrate(handle);
      log(`  migrations applied: ${applied.join(', ')}`);
      await seedDemoData(handle);
      log('  demo data loaded');
    } finally {
      await handle.close();
      handle = null;
    }
    await loadBenchData(session, users, { fastLoad: true, log });
    const vacuumStarted = performance.now();
    await session.run('vacuum (analyze)');
    log(`  ${'vacuum analyze'.padEnd(30)} ${((performance.now() - vacuumStarted) / 1000).toFixed(1)} s`);
    const counts = await countRows(session);
    await session.run(
      `create table bench_seed (users integer not null, version integer not null, seeded_at timestamptz not null default now());
       insert into bench_seed (users, version) values (${users}, ${SEED_VERSION})`,
    );
    return { size, counts, seconds: (performance.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}

/** The size the bench seed gave this database, or null (not seeded by this version, or not at all). */
export async function seededSize(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch {
    return null;
  }
  try {
    const exists = await client.query(`select to_regclass('public.bench_seed') is not null as present`);
    if (!exists.rows[0]?.present) return null;
    const row = (await client.query('select users, version from bench_seed limit 1')).rows[0] as { users: number; version: number } | undefined;
    return row && row.version === SEED_VERSION ? row.users : null;
  } finally {
    await client.end();
  }
}
