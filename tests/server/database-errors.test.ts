// Which failures mean "the database cannot be reached right now" (503 with Retry-After, server/plugins/database-errors.ts),
// with errors made by the real pg and pg-pool where a test can make them, and the answers the server gives for them.
import net from 'node:net';
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../../server/plugins/database-errors.ts';
import { expectMatchesContract } from './support/contract.ts';
import { fixtures } from './support/fixtures.ts';
import { freePort } from './support/server-process.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const sqlError = (code: string, message = 'failed') => Object.assign(new Error(message), { code, severity: 'FATAL' });

/** A TCP server that accepts connections and never answers: a database that hangs. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('failures that mean the database cannot be reached', () => {
  it("recognizes pg's refused connection to a port nobody listens on", async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: await freePort(), user: 'nobody', database: 'none' });
    const error = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("recognizes pg-pool's connection timeout against a server that never answers", async () => {
    const silent = await silentServer();
    const pool = new pg.Pool({ host: '127.0.0.1', port: silent.port, user: 'nobody', database: 'none', connectionTimeoutMillis: 100 });
    try {
      const error = await pool.query('select 1').then(
        () => null,
        (e: unknown) => e,
      );
      expect(String((error as Error)?.message)).toMatch(/timeout/i);
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await pool.end();
      await silent.close();
    }
  });

  it.each([
    ['a fast shutdown ending the session (57P01)', sqlError('57P01', 'terminating connection due to administrator command')],
    ['a crash of another backend (57P02)', sqlError('57P02')],
    ['a server starting up or shutting down (57P03)', sqlError('57P03', 'the database system is shutting down')],
    ['a connection exception (08006)', sqlError('08006')],
    ['too many connections (53300)', sqlError('53300')],
    ['a statement timeout (57014)', sqlError('57014', 'canceling statement due to statement timeout')],
    ['a connection lost mid-statement', new Error('Connection terminated unexpectedly')],
    ['a client used after its connection broke', new Error('Client has encountered a connection error and is not queryable')],
    ['a read timeout', new Error('Query read timeout')],
    ['a reset socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a refusal wrapped as the cause', new Error('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })],
    ['each address refused (AggregateError)', new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })], 'connect failed')],
  ])('recognizes %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', sqlError('23505', 'duplicate key value violates unique constraint')],
    ['a missing table (42P01)', sqlError('42P01')],
    ['a check violation (23514)', sqlError('23514')],
    ['a serialization failure (40001)', sqlError('40001')],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a string', 'Connection terminated'],
    ['nothing', undefined],
  ])('does not take %s for an unreachable database', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('answers while the database cannot be reached', () => {
  let t: TestApp;
  // While set, the server's statements of these kinds (all by default) and its readiness check fail with `error`. Given
  // kinds, the API rate limit's count (an insert into rate_limit_hits before every request) is left alone: the failure
  // is meant for the operation's own statements.
  let failure: { error: unknown; kinds?: string[] } | null = null;
  const isRateLimitCount = (node: RootOperationNode) => node.kind === 'InsertQueryNode' && node.into?.table.identifier.name === 'rate_limit_hits';
  const failing: KyselyPlugin = {
    transformQuery(args) {
      if (failure && (!failure.kinds || (failure.kinds.includes(args.node.kind) && !isRateLimitCount(args.node)))) throw failure.error;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };

  beforeAll(async () => {
    t = await startTestApp({ name: 'pglite' }, {
      wrapDatabase: (handle) => ({
        ...handle,
        db: handle.db.withPlugin(failing),
        ping: () => (failure ? Promise.reject(failure.error) : handle.ping()),
      }),
    });
  });
  afterAll(() => t?.close());

  async function callDuring(error: unknown, method: 'GET' | 'POST', url: string, kinds?: string[]) {
    const token = await t.tokenFor('backoffice@portail.test');
    failure = { error, ...(kinds ? { kinds } : {}) };
    try {
      return await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` } });
    } finally {
      failure = null;
    }
  }

  it('answers 503 with Retry-After and the French message, in the error body of the contract, when connections are refused', async () => {
    const answer = await callDuring(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 'GET', '/api/v2/users/me');
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    const body = answer.json();
    expect(body).toEqual({ error: 'ServiceUnavailable', message: DATABASE_UNAVAILABLE_MESSAGE, requestId: answer.headers['x-request-id'] });
    expectMatchesContract('GET', '/api/v2/users/me', 503, body);
  });

  it('answers 503 to an approval that a shutdown ended after its update (57P01), the update rolled back', async () => {
    const db = t.database.handle.db;
    // A request of its own: the demo's pending ones may be past their period by the day this runs (issue 22).
    const pending = await fixtures(db).pendingInvitation({ sirenId: (await fixtures(db).organization('Clinique des Tilleuls')).id });
    const shutdown = sqlError('57P01', 'terminating connection due to administrator command');
    const answer = await callDuring(shutdown, 'POST', `/api/v2/invitations/${pending.id}/approve`, ['InsertQueryNode']);
    expect(answer.statusCode).toBe(503);
    expect(answer.json().message).toBe(DATABASE_UNAVAILABLE_MESSAGE);
    const after = await db.selectFrom('invitations').select('status').where('id', '=', pending.id).executeTakeFirstOrThrow();
    expect(after.status).toBe('PENDING');
  });

  it('still answers 500 without Retry-After to a failure that is not about reaching the database', async () => {
    const answer = await callDuring(sqlError('42P01', 'relation "users" does not exist'), 'GET', '/api/v2/users/me');
    expect(answer.statusCode).toBe(500);
    expect(answer.headers['retry-after']).toBeUndefined();
    expect(answer.json().message).toBe('Erreur interne du serveur.');
  });

  it('says not ready on /readyz, and ready again once the database answers', async () => {
    const down = await callDuring(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'GET', '/readyz');
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'not ready', reason: 'database unreachable' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});
