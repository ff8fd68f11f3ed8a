// Opens the database: PostgreSQL through pg when a URL is given, else PGlite (a folder, or in memory).
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** Plain SQL inside one transaction on one connection (used by the migration runner). */
export interface RawTransaction {
  /** Several statements, no parameters. */
  exec(sql: string): Promise<void>;
  query<Row extends object = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** Runs a script of several statements without parameters, outside any transaction. */
  exec(sql: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL only: the pool's connections (all, idle) and the queries waiting for one; PGlite has no pool. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Commits when `work` resolves, rolls back and rethrows when it throws. */
  withRawTransaction<T>(work: (tx: RawTransaction) => Promise<T>): Promise<T>;
  /**
   * PGlite only: a copy of the whole database, to open others from (option loadDataDir), e.g. a migrated
   * and seeded template that tests reopen in about 0.8 s instead of building a fresh one in 2 s or more.
   */
  dumpDataDir?(): Promise<Blob>;
}

export interface OpenDatabaseOptions {
  /** postgres://… ; when set, PostgreSQL is used and dataDir is ignored. */
  databaseUrl?: string;
  /** PGlite data folder; undefined = in memory. */
  dataDir?: string;
  /** Size of the PostgreSQL pool (default 10). */
  poolMax?: number;
  /** PGlite only: start from a dump made with PGlite.dumpDataDir() (e.g. a migrated template). */
  loadDataDir?: Blob;
  /** PostgreSQL only: other waits than POSTGRES_TIMEOUTS (tests make them short). */
  timeouts?: Partial<PostgresTimeouts>;
}

const INT8_OID = 20;

/**
 * The one place where int8 (count(*), bigint ids) is read: as a JavaScript number on both drivers.
 * pg would give a string and PGlite a number or a bigint. Values stay far below 2^53 here.
 */
function parseInt8(text: string): number {
  return Number(text);
}

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<DatabaseHandle> {
  if (!options.databaseUrl) return openPglite(options);
  return openPostgres(options.databaseUrl, options.poolMax ?? 10, { ...POSTGRES_TIMEOUTS, ...options.timeouts });
}

/**
 * Statements whose plan does not depend on their parameters' values (lookups by id, the actor, the
 * counters, a page's assignments) are prepared once per connection, under a name made from their text:
 * PostgreSQL then neither parses nor plans them again (about a third of what a short statement costs it).
 * Left to plan every time: searches (LIKE: the pattern decides the index), pages past the first and
 * parameters as LIMIT (a generic plan assumes a tenth of the rows), and `*` columns (a column added by a
 * migration must not break a cached plan) — unless the statement holds PREPARE_ANYWAY, where the plan's
 * shape does not depend on the values (PostgreSQL 15 plans the first five runs for their values, then reuses one
 * generic plan whenever it is estimated no dearer than their average, whatever the values of later runs: a
 * statement whose best plan depends on its values must stay planned, as the journal's page of several actions).
 * At most MAX_PREPARED texts get a name, so that odd statements never fill the server's memory.
 */
const NOT_PREPARED = /\blike\b|\boffset\b|\blimit\s+\$|select\s+\*|\.\*|returning\s+\*/i;
/** Queries and changes (not begin, commit, set…), after an optional leading comment. */
const PREPARABLE = /^\s*(\/\*.*?\*\/\s*)?(select|with|insert|update|delete)\b/is;
export const PREPARE_ANYWAY = '/* prepared */';
const MAX_PREPARED = 200;
const preparedNames = new Map<string, string>();

export function preparedName(text: string): string | null {
  const known = preparedNames.get(text);
  if (known) return known;
  if (!PREPARABLE.test(text) || (NOT_PREPARED.test(text) && !text.includes(PREPARE_ANYWAY)) || preparedNames.size >= MAX_PREPARED) return null;
  const name = `p${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  preparedNames.set(text, name);
  return name;
}

/**
 * How long the API waits on PostgreSQL, so that a stopped or unreachable database answers 503 within
 * about two seconds (server/plugins/database-errors.ts) instead of hanging:
 * - connectMs: making a connection, or waiting for a free one of the pool;
 * - statementMs: one statement of the API (statement_timeout, enforced by PostgreSQL; the slowest reads
 *   take well under a second at a million users). Migrations and scripts (exec, withRawTransaction) have none;
 * - readMs: the answer to one statement of the API when PostgreSQL no longer answers at all (a frozen
 *   server or a silent network): the connection is then dropped;
 * - pingMs: the readiness check.
 */
export interface PostgresTimeouts {
  connectMs: number;
  statementMs: number;
  readMs: number;
  pingMs: number;
}
export const POSTGRES_TIMEOUTS: Readonly<PostgresTimeouts> = { connectMs: 1000, statementMs: 5000, readMs: 7000, pingMs: 1500 };

/**
 * pg's client, naming the statements preparedName() accepts and bounding the wait for their answer
 * (Kysely calls query(text, values); the raw paths below pass a config object and are left alone).
 */
function preparingClient(readMs: number) {
  return class PreparingClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super(config);
      // A connection lost while the client is checked out (between two statements of a transaction) is
      // emitted as 'error' with no listener, which would end the process: its statements fail anyway
      // ('not queryable'), and the pool drops it when it is released.
      this.on('error', () => undefined);
    }

    override query(...args: unknown[]): never {
      const [text, values, callback] = args;
      const call = super.query as (...a: unknown[]) => never;
      if (typeof text !== 'string' || !Array.isArray(values) || typeof callback === 'function') return call.apply(this, args);
      const name = preparedName(text);
      const answer = call.call(this, { ...(name ? { name } : {}), text, values, query_timeout: readMs }) as Promise<unknown>;
      return answer.catch((error: unknown) => {
        // The statement may still be running there: the connection is closed (at once, as a statement is under
        // way), and the pool drops the client when it comes back (it checks that the client is ending).
        if ((error as Error)?.message === 'Query read timeout') this.end().catch(() => undefined);
        throw error;
      }) as never;
    }
  };
}

async function openPostgres(connectionString: string, max: number, timeouts: PostgresTimeouts): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    Client: preparingClient(timeouts.readMs),
    connectionString,
    max,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    // No JIT compilation: the API's statements are short, and a costly plan that never runs (a kept total's count,
    // server/db/list-totals.ts) was compiled all the same, about 100 ms each time on a 10M-entry journal.
    options: '-c jit=off',
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection (PostgreSQL stopped or restarted) must not crash the process:
  // the pool drops it and the next request connects anew.
  pool.on('error', (error) => {
    console.error('[db] idle PostgreSQL client error:', error.message);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const handle: DatabaseHandle = {
    db,
    kind: 'postgres',
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async exec(sql) {
      // Without parameters pg uses the simple query protocol, which accepts several statements. Without the
      // API's statement timeout, on a connection of its own that is closed afterwards.
      const client = await pool.connect();
      try {
        await client.query('set statement_timeout = 0');
        await client.query(sql);
      } finally {
        client.release(true);
      }
    },
    async ping() {
      // pg reads query_timeout from the query's config, which its types leave out.
      const ping = { text: 'select 1', query_timeout: timeouts.pingMs };
      await pool.query(ping);
    },
    async close() {
      // Kysely only ends the pool if it ever used it; exec/ping may have been the only users.
      await db.destroy();
      if (!pool.ended) await pool.end();
    },
    async withRawTransaction(work) {
      const client = await pool.connect();
      try {
        // Migrations may run long on a large database: no statement timeout, no read timeout.
        await client.query('begin');
        await client.query('set local statement_timeout = 0');
        const tx: RawTransaction = {
          async exec(sql) {
            await client.query(sql);
          },
          async query<Row extends object>(sql: string, params: readonly unknown[] = []) {
            const result = await client.query({ text: sql, values: [...params] });
            return result.rows as Row[];
          },
        };
        const result = await work(tx);
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
  };
  await handle.ping();
  return handle;
}

async function openPglite(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  // Loaded only without DATABASE_URL: a server on PostgreSQL never loads PGlite (about 50 MB of memory).
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const pglite = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: { pg_trgm },
    parsers: { [INT8_OID]: parseInt8 },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return {
    db,
    kind: 'pglite',
    async exec(sql) {
      await pglite.exec(sql);
    },
    async ping() {
      await pglite.query('select 1');
    },
    async close() {
      // Kysely only closes PGlite if it ever used it.
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
    async withRawTransaction(work) {
      return pglite.transaction(async (transaction) => {
        const tx: RawTransaction = {
          async exec(sql) {
            await transaction.exec(sql);
          },
          async query<Row extends object>(sql: string, params: readonly unknown[] = []) {
            const result = await transaction.query<Row>(sql, [...params]);
            return result.rows;
          },
        };
        return work(tx);
      });
    },
    async dumpDataDir() {
      return pglite.dumpDataDir('none');
    },
  };
}
