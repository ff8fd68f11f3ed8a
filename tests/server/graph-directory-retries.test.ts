// Microsoft Graph throttling (429) and unavailability (503): idempotent calls are retried as Retry-After says,
// within a number of attempts and a total wait; a person whose operation still meets them gets a 503.
// Time is a fake clock: the directory's sleep moves it, nothing really waits.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Transaction } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import { GraphDirectoryError } from '../../server/identity/graph-directory.ts';
import { backends } from './db/test-databases.ts';
import { startGraphStub, type GraphCall, type GraphReply } from './support/graph-stub.ts';
import { callApi, completePayload, PERSONAS, rowCounts, roleIds, uniqueEmail } from './support/users-api.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { fixtures } from './support/fixtures.ts';
import { organizationByName } from './support/invitations.ts';

/** A database answering no rows (Graph is not in the database; createAccount only reads it). */
const trx = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
}) as unknown as Transaction<Database>;

const SUBJECT = '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
const THROTTLED: GraphReply = { status: 429, body: { error: { code: 'TooManyRequests', message: 'Too many requests.' } } };
const UNAVAILABLE: GraphReply = { status: 503, body: { error: { code: 'ServiceUnavailable', message: 'Service unavailable.' } } };
const retryAfter = (reply: GraphReply, value: string): GraphReply => ({ ...reply, headers: { 'retry-after': value } });

/** Answers `first` to the first `times` Graph calls, then `then`. */
function failing(times: number, first: GraphReply, then: (call: GraphCall) => GraphReply = () => ({ status: 204 })) {
  let seen = 0;
  return (call: GraphCall) => (++seen <= times ? first : then(call));
}

let graph: Awaited<ReturnType<typeof startGraphStub>>;
let now: number;
let waits: number[];
const clock = () => ({
  now: () => now,
  sleep: async (ms: number) => {
    waits.push(ms);
    now += ms;
  },
});

beforeAll(async () => {
  graph = await startGraphStub();
});
afterAll(async () => {
  await graph?.close();
});
beforeEach(() => {
  graph.calls.length = 0;
  graph.tokenCalls.length = 0;
  now = Date.UTC(2026, 10, 2, 9);
  waits = [];
});
afterEach(() => {
  graph.answer((call) => (call.method === 'POST' ? { status: 201, body: { id: 'created-id' } } : { status: 204 }));
  graph.answerTokens((_call, issue) => issue());
});

const methods = () => graph.calls.map((call) => `${call.method} ${call.path.split('?')[0]}`);

describe('GraphIdentityDirectory when Graph throttles', () => {
  it('retries a read refused with 429, after the seconds of Retry-After', async () => {
    graph.answer(failing(1, retryAfter(THROTTLED, '3'), (call) => (call.method === 'GET' ? { status: 200, body: { identities: [] } } : { status: 204 })));
    await graph.directory(clock()).updateAccount(trx, SUBJECT, { email: 'marie@exemple.fr', displayName: 'Marie Martin' });
    expect(methods()).toEqual([`GET /v1.0/users/${SUBJECT}`, `GET /v1.0/users/${SUBJECT}`, `PATCH /v1.0/users/${SUBJECT}`]);
    expect(waits).toEqual([3000]);
  });

  it('reads Retry-After given as an HTTP date, against its clock', async () => {
    graph.answer(failing(1, retryAfter(UNAVAILABLE, new Date(now + 5000).toUTCString())));
    await graph.directory(clock()).disableAccount(trx, SUBJECT);
    expect(methods()).toEqual([`PATCH /v1.0/users/${SUBJECT}`, `PATCH /v1.0/users/${SUBJECT}`]);
    expect(waits).toEqual([5000]);
  });

  it('retries the same PATCH on 503 without Retry-After, waiting longer each time', async () => {
    graph.answer(failing(2, UNAVAILABLE));
    await graph.directory(clock()).enableAccount(trx, SUBJECT);
    expect(graph.calls.map((call) => JSON.parse(call.body))).toEqual([{ accountEnabled: true }, { accountEnabled: true }, { accountEnabled: true }]);
    expect(waits).toEqual([1000, 2000]);
  });

  it('counts a retried DELETE that finds the account gone as done', async () => {
    graph.answer(failing(1, retryAfter(THROTTLED, '1'), () => ({ status: 404, body: { error: { code: 'Request_ResourceNotFound', message: 'gone' } } })));
    await expect(graph.directory(clock()).deleteAccount(trx, SUBJECT)).resolves.toBeUndefined();
    expect(methods()).toEqual([`DELETE /v1.0/users/${SUBJECT}`, `DELETE /v1.0/users/${SUBJECT}`]);
  });

  it('gives up after 4 attempts with the last refusal', async () => {
    graph.answer(() => retryAfter(THROTTLED, '1'));
    const error = await graph.directory(clock()).disableAccount(trx, SUBJECT).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(GraphDirectoryError);
    expect(error).toMatchObject({ status: 429, code: 'TooManyRequests' });
    expect(graph.calls).toHaveLength(4);
    expect(waits).toEqual([1000, 1000, 1000]);
  });

  it('gives up at once when Retry-After asks for more than is left of the 10 s it may wait in all', async () => {
    graph.answer(failing(2, retryAfter(THROTTLED, '6')));
    const error = await graph.directory(clock()).disableAccount(trx, SUBJECT).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ status: 429 });
    expect(graph.calls).toHaveLength(2);
    expect(waits).toEqual([6000]);
  });

  it('retries an account creation refused with 429 (Graph did not process it), not one refused with 503 (it may have)', async () => {
    graph.answer(failing(1, retryAfter(THROTTLED, '2'), () => ({ status: 201, body: { id: SUBJECT } })));
    await expect(graph.directory(clock()).createAccount(trx, { email: 'a@exemple.fr', displayName: 'A' })).resolves.toEqual({ subject: SUBJECT, reused: false });
    expect(methods()).toEqual(['POST /v1.0/users', 'POST /v1.0/users']);

    graph.calls.length = 0;
    graph.answer(failing(1, retryAfter(UNAVAILABLE, '2'), () => ({ status: 201, body: { id: SUBJECT } })));
    const error = await graph.directory(clock()).createAccount(trx, { email: 'b@exemple.fr', displayName: 'B' }).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ status: 503 });
    expect(methods()).toEqual(['POST /v1.0/users']);
  });

  it('retries a throttled token request', async () => {
    let refused = 0;
    graph.answerTokens((_call, issue) => (refused++ < 1 ? retryAfter({ status: 429, body: { error: 'temporarily_unavailable' } }, '2') : issue()));
    await graph.directory(clock()).disableAccount(trx, SUBJECT);
    expect(graph.tokenCalls).toHaveLength(2);
    expect(graph.calls).toHaveLength(1);
    expect(waits).toEqual([2000]);
  });
});

for (const backend of backends) {
  describe(`a person's operation while Graph throttles, on ${backend.name}`, () => {
    let t: TestApp;
    let siret: string;
    let roleId: number;

    beforeAll(async () => {
      t = await startTestApp(backend, { directory: graph.directory(clock()) });
      roleId = (await roleIds(t)).COMPTABLE!;
      siret = (await fixtures(t.database.handle.db).siretsOf((await organizationByName(t, 'Clinique des Tilleuls')).id))[0]!.code;
    });
    afterAll(async () => {
      await t?.close();
    });

    const create = (email: string) => callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/complete', payload: completePayload([siret], [roleId], { email }) });

    it('succeeds when Graph accepts within the retries', async () => {
      graph.answer(failing(2, retryAfter(THROTTLED, '1'), () => ({ status: 201, body: { id: `created-${Date.now()}` } })));
      const answer = await create(uniqueEmail('throttled'));
      expect(answer.status).toBe(201);
      expect(methods()).toEqual(['POST /v1.0/users', 'POST /v1.0/users', 'POST /v1.0/users']);
    });

    it('answers 503 with the directory message, and keeps nothing, when Graph still throttles after them', async () => {
      graph.answer(() => retryAfter(THROTTLED, '1'));
      const before = await rowCounts(t);
      const answer = await create(uniqueEmail('throttled'));
      expect(answer.status).toBe(503);
      expect(answer.body.message).toBe("Le service d'identité est momentanément indisponible. Réessayez dans quelques instants.");
      expect(graph.calls).toHaveLength(4);
      expect(await rowCounts(t)).toEqual(before);
    });
  });
}
