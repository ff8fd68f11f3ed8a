// The databases of a benchmark's sizes (npm run bench, npm run bench:search): DATABASE_URL's when it holds
// that size, else <name>_<label>, created and seeded when missing.
import pg from 'pg';
import { checkBenchDatabase } from './args.ts';
import { sizeLabel } from './dataset.ts';
import { databaseName, withDatabase } from './names.ts';
import { seedBenchDatabase, seededSize } from './seed-runner.ts';

export interface BenchTarget {
  url: string;
  users: number;
}

/** The database of each size: DATABASE_URL's when it holds that size, else <name>_<label> (created and seeded). */
export async function prepareDatabases(args: { sizes: readonly number[]; reseed: boolean; force: boolean }, baseUrl: string, say: (line: string) => void): Promise<BenchTarget[]> {
  if (args.sizes.length === 0) {
    const users = await seededSize(baseUrl);
    if (users === null) throw new Error(`'${databaseName(baseUrl)}' holds no benchmark data set: run npm run bench:seed first (or pass --sizes)`);
    return [{ url: baseUrl, users }];
  }
  checkBenchDatabase(baseUrl, args.force);
  const baseSize = args.reseed ? null : await seededSize(baseUrl);
  const targets: BenchTarget[] = [];
  for (const users of [...args.sizes].sort((a, b) => a - b)) {
    const url = baseSize === users ? baseUrl : withDatabase(baseUrl, `${databaseName(baseUrl)}_${sizeLabel(users)}`);
    if (url !== baseUrl) await createDatabaseIfMissing(baseUrl, databaseName(url), say);
    if (args.reseed || (await seededSize(url)) !== users) {
      say(`seeding ${databaseName(url)} with ${users.toLocaleString('en')} users (its content is replaced)`);
      await seedBenchDatabase(url, users, (line) => say(line));
    }
    targets.push({ url, users });
  }
  return targets;
}

async function createDatabaseIfMissing(baseUrl: string, name: string, say: (line: string) => void): Promise<void> {
  const admin = new pg.Client({ connectionString: withDatabase(baseUrl, 'postgres') });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      say(`creating database ${name}`);
      await admin.query(`create database "${name.replaceAll('"', '""')}"`);
    }
  } finally {
    await admin.end();
  }
}
