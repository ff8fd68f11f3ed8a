// Expensive reads are bounded (issue 19): at most 8 list requests of one person in flight, the ninth answering
// 429 with Retry-After and a French message; other people, and the same person's other requests, are served.
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryId, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../server/db/database.ts';
import { backends } from './db/test-databases.ts';
import { writeAudit } from '../../server/features/audit/audit.repository.ts';
import { callApi, type ApiAnswer } from './support/api.ts';
import { PERSONAS } from './support/users-api.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/** Holds the page query of the audit list (a select from audit_log with a limit) until opened: its requests stay in flight. */
class AuditPageGate implements KyselyPlugin {
  held = 0;
  #closed = false;
  #waiting: (() => void)[] = [];
  #gated = new WeakSet<QueryId>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const text = JSON.stringify(args.node);
    if (args.node.kind === 'SelectQueryNode' && text.includes('"audit_log"') && text.includes('"LimitNode"')) this.#gated.add(args.queryId);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#closed && this.#gated.has(args.queryId)) {
      this.held += 1;
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    return args.result;
  }

  close() {
    this.#closed = true;
  }

  open() {
    this.#closed = false;
    for (const resolve of this.#waiting.splice(0)) resolve();
    this.held = 0;
  }

  wrap = (handle: DatabaseHandle): DatabaseHandle => ({ ...handle, db: handle.db.withPlugin(this) });
}

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('list requests in flight', () => {
  let t: TestApp;
  const gate = new AuditPageGate();
  beforeAll(async () => {
    t = await startTestApp(backends[0]!, { wrapDatabase: gate.wrap });
    // One entry in the journal: an empty one answers without reading a page (nothing would be held).
    await writeAudit(t.database.handle.db, { actor: { userId: null, email: 'ops@exemple.fr' }, action: 'user.update', entityType: 'user', entityId: 'personne', changes: {} });
  });
  afterAll(() => t?.close());

  const listAudit = (as: string) => callApi(t, { as, method: 'GET', route: '/api/v2/audit' });

  it('answers the ninth list of one person 429 with Retry-After while 8 are in flight, serves the others, and frees the slots', async () => {
    gate.close();
    const inFlight: Promise<ApiAnswer>[] = Array.from({ length: 8 }, () => listAudit(PERSONAS.backoffice));
    try {
      await until(() => gate.held === 8);

      const ninth = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users', query: { pageSize: 5 } });
      expect(ninth.status).toBe(429);
      expect(ninth.headers['retry-after']).toBe('1');
      expect(ninth.body.message).toBe('Trop de listes demandées en même temps (8 au plus). Réessayez dans 1 seconde.');
      for (const route of ['/api/v2/invitations', '/api/v2/organizations', '/api/v2/audit'] as const) {
        expect((await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route })).status, route).toBe(429);
      }

      // The same person's other requests, and another person's lists, are served meanwhile.
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users/me' })).status).toBe(200);
      expect((await callApi(t, { as: PERSONAS.adminClinique, method: 'GET', route: '/api/v2/users', query: { pageSize: 5 } })).status).toBe(200);
    } finally {
      gate.open();
    }
    expect((await Promise.all(inFlight)).map((a) => a.status)).toEqual(Array(8).fill(200));
    expect((await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users', query: { pageSize: 5 } })).status).toBe(200);
  });

  it('LISTS_IN_FLIGHT_PER_PERSON is 8 by default, 0 for no limit (the benchmark), and a whole number', async () => {
    const { readConfig } = await import('../../server/config.ts');
    expect(readConfig({}).listsInFlightPerPerson).toBe(8);
    expect(readConfig({ LISTS_IN_FLIGHT_PER_PERSON: '0' }).listsInFlightPerPerson).toBe(0);
    expect(() => readConfig({ LISTS_IN_FLIGHT_PER_PERSON: 'huit' })).toThrowError("LISTS_IN_FLIGHT_PER_PERSON must be a whole number, 0 for no limit (got 'huit')");
    const { serverEnv } = await import('../../bench/server-env.ts');
    expect(serverEnv({ databaseUrl: 'postgres://x', port: 1, dataDir: '/tmp', poolSize: 1 }).LISTS_IN_FLIGHT_PER_PERSON).toBe('0');
  });

  it('frees the slot of a list refused (400) as of one served', async () => {
    for (let i = 0; i < 12; i += 1) {
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users', query: { pageSize: 1000 } })).status).toBe(400);
    }
    expect((await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users', query: { pageSize: 5 } })).status).toBe(200);
  });
});
