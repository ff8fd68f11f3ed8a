// The PostgreSQL handle when the database goes away or stops answering (server/db/database.ts): every wait is
// bounded, failures are the ones server/plugins/database-errors.ts answers 503, transactions roll back, and the
// next statement gets a working connection. The session-ending cases need PostgreSQL (TEST_DATABASE_URL).
import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnPostgres } from '../../support/on-postgres.ts';
import { openDatabase, type DatabaseHandle, type PostgresTimeouts } from '../../../server/db/database.ts';
import { isDatabaseUnavailable } from '../../../server/plugins/database-errors.ts';
import { createTestDatabase, type TestDatabase } from './test-databases.ts';


const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: unknown) => error,
  );

describe('opening a PostgreSQL handle on a server that never answers', () => {
  it('fails within the connect timeout, as an unavailable database', async () => {
    const server = net.createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const error = await failureOf(openDatabase({ databaseUrl: `postgres://nobody@127.0.0.1:${port}/none`, timeouts: { connectMs: 200 } }));
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      server.close();
    }
  });
});

describeOnPostgres('a PostgreSQL handle losing its session or waiting too long', () => {
  let database: TestDatabase;
  const opened: DatabaseHandle[] = [];
  const open = async (poolMax: number, timeouts: Partial<PostgresTimeouts> = {}) => {
    const handle = await openDatabase({ databaseUrl: database.url!, poolMax, timeouts });
    opened.push(handle);
    return handle;
  };
  const rowsOf = async (handle: DatabaseHandle, values: number[]) =>
    (await sql<{ n: number }>`select n from connection_loss where n = any(${values}) order by n`.execute(handle.db)).rows.map((r) => r.n);

  beforeAll(async () => {
    database = await createTestDatabase({ name: 'postgres' });
    await database.handle.exec('create table connection_loss (n int not null)');
  });
  afterAll(async () => {
    await Promise.all(opened.map((handle) => handle.close()));
    await database?.dispose();
  });

  it('fails a transaction whose session ends under it, rolls it back, survives, and serves the next statement on a new connection', async () => {
    const handle = await open(1);
    // The session ends as a fast shutdown ends it (57P01), while the transaction holds its connection: pg
    // then emits 'error' on a checked-out client, which would end the process without a listener.
    const uncaught: unknown[] = [];
    const record = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', record);
    let error: unknown;
    try {
      error = await failureOf(
        handle.db.transaction().execute(async (trx) => {
          await sql`insert into connection_loss values (1)`.execute(trx);
          await sql`select pg_terminate_backend(pg_backend_pid())`.execute(trx);
        }),
      );
    } finally {
      process.off('uncaughtException', record);
    }
    expect(uncaught).toEqual([]);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(await rowsOf(handle, [1])).toEqual([]);
  });

  it('cancels an API statement past the statement timeout (57014), but not a script or a migration', async () => {
    const handle = await open(2, { statementMs: 200 });
    const error = await failureOf(sql`select pg_sleep(0.6)`.execute(handle.db));
    expect(error).toMatchObject({ code: '57014' });
    expect(isDatabaseUnavailable(error)).toBe(true);
    await handle.exec('select pg_sleep(0.4); insert into connection_loss values (2)');
    await handle.withRawTransaction(async (tx) => {
      await tx.query('select pg_sleep(0.4)');
      await tx.exec('insert into connection_loss values (3)');
    });
    expect(await rowsOf(handle, [2, 3])).toEqual([2, 3]);
    // The script's connection went away with its setting: API statements are bounded again.
    expect(await failureOf(sql`select pg_sleep(0.6)`.execute(handle.db))).toMatchObject({ code: '57014' });
  });

  it('gives up on a statement whose answer does not come in time and drops its connection, so the next one is served', async () => {
    // A new connection may take over the default second on a machine loaded by other suites: this test is about the answer's wait.
    const handle = await open(1, { readMs: 200, connectMs: 10_000 });
    const error = await failureOf(sql`select pg_sleep(1)`.execute(handle.db));
    expect((error as Error).message).toBe('Query read timeout');
    expect(isDatabaseUnavailable(error)).toBe(true);
    // One connection in the pool: served only if the one still busy with pg_sleep was dropped.
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(handle.db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
