// A PostgreSQL database of its own for a resilience test, next to TEST_DATABASE_URL's (`<name>_<suffix>`),
// dropped afterwards. These tests run the server as production does, on PostgreSQL only.
import pg from 'pg';
import { databaseName, withDatabase } from '../../../bench/names.ts';

export { describeOnPostgres, TEST_DATABASE_URL } from '../../support/on-postgres.ts';
import { TEST_DATABASE_URL } from '../../support/on-postgres.ts';

export interface OwnDatabase {
  name: string;
  url: string;
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]>;
  drop(): Promise<void>;
}

/** One connection to `url` for the time of `work`. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new empty database `<TEST_DATABASE_URL's name>_<suffix>` (one left by an interrupted run is replaced). */
export async function createOwnDatabase(suffix: string): Promise<OwnDatabase> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is needed');
  const name = `${databaseName(TEST_DATABASE_URL)}_${suffix}`;
  const quoted = `"${name.replaceAll('"', '""')}"`;
  await withClient(TEST_DATABASE_URL!, async (admin) => {
    await admin.query(`drop database if exists ${quoted} with (force)`);
    await admin.query(`create database ${quoted}`);
  });
  const url = withDatabase(TEST_DATABASE_URL, name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let open = true;
  return {
    name,
    url,
    async query<Row>(text: string, values: unknown[] = []) {
      return (await client.query(text, values)).rows as Row[];
    },
    async drop() {
      if (open) await client.end();
      open = false;
      await withClient(TEST_DATABASE_URL!, (admin) => admin.query(`drop database if exists ${quoted} with (force)`));
    },
  };
}
