// Fuzzing from the OpenAPI document (issue 9): every operation of openapi/openapi.yaml, as a back-office
// user and as an organization user, FUZZ_RUNS generated requests each (valid and invalid ones, see
// requests.ts), through the in-process app. Every answer: no 5xx, a documented status, a body of the
// documented schema; an invalid request gets 400 naming the field; a 4xx leaves the database as it was.
// FUZZ_SEED fixes the run (the default in CI); FUZZ_RUNS=2000 for a longer local run; FUZZ_DEBUG=1 prints the
// refusals of valid requests (to see why they do not succeed, when tuning the hints of real-rows.ts).
// PGlite only: what is checked is the contract and the handlers; the backend matrix of tests/server
// covers PostgreSQL, and the in-process PGlite keeps this run short.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { contractBreach, operations, type Operation } from './contract.ts';
import { snapshotOf, type Snapshot, type State } from './db-snapshot.ts';
import { CURRENT_VERSION, hintsFor, realRows } from './real-rows.ts';
import { requestArbitrary, type FuzzRequest } from './requests.ts';
import type { Hints } from './values.ts';
import type { Actor } from '../../../server/core/actor.ts';
import { DomainError } from '../../../server/core/errors.ts';
import { loadActor } from '../../../server/features/session/actor.repository.ts';
import { requireMayCallOperation } from '../../../server/features/session/operations.policy.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const PERSONAS = [
  { name: 'back-office user (ADMIN_OPCO)', email: 'backoffice@portail.test' },
  { name: 'organization user (ADMIN_ADHERENT)', email: 'admin.clinique@portail.test' },
] as const;
const OPERATIONS = operations();
/** GET operations that write: each export writes its journal entry ('users.export', 'journal.export'). */
// An export and a download of a person's data record themselves in the journal.
const READS_THAT_WRITE = new Set(['exportUsers', 'exportAuditEntries', 'getUserPersonalData', 'getMyPersonalData']);

interface Tally {
  valid: number;
  invalid: number;
  statuses: Map<number, number>;
  validStatuses: Map<number, number>;
}

/** The seed of one operation and persona: each reproducible alone, all fixed by FUZZ_SEED. */
function seedOf(...names: string[]): number {
  let h = SEED | 0;
  for (const c of names.join('|')) h = (Math.imul(h, 31) + c.codePointAt(0)!) | 0;
  return h;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const namesField = (fieldErrors: unknown, field: string) =>
  Array.isArray(fieldErrors) && fieldErrors.some((f: { field?: string }) => f.field?.toLowerCase() === field.toLowerCase() || f.field?.toLowerCase().startsWith(`${field.toLowerCase()}.`));

/** The tables whose part of the snapshot differs, as 'table: before → after'. */
function changedTables(before: State, after: State): string {
  const [a, b] = [JSON.parse(before.digest) as Record<string, string>, JSON.parse(after.digest) as Record<string, string>];
  return Object.keys({ ...a, ...b }).filter((k) => a[k] !== b[k]).map((k) => `${k}: ${a[k]} → ${b[k]}`).join(', ');
}

const add = (map: Map<number, number>, status: number) => map.set(status, (map.get(status) ?? 0) + 1);
const histogram = (map: Map<number, number>) => [...map].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');

console.log(`[fuzz] seed ${SEED} (FUZZ_SEED), ${RUNS} requests per operation and persona (FUZZ_RUNS), ${OPERATIONS.length} operations`);

describe.each(PERSONAS)('fuzzing every operation as a $name', (persona) => {
  let t: TestApp, token: string, hints: Hints, snapshot: Snapshot, actor: Actor;
  const tallies = new Map<string, Tally>();

  beforeAll(async () => {
    // Thousands of requests a minute from one person: the API's rate limit (server/config.ts) is off here.
    t = await startTestApp({ name: 'pglite' }, { env: { API_RATE_LIMIT_PER_MINUTE: '0' } });
    token = await t.tokenFor(persona.email);
    const subject = await t.database.handle.db.selectFrom('users').select('auth_id').where('email', '=', persona.email).executeTakeFirstOrThrow();
    actor = (await loadActor(t.database.handle.db, subject.auth_id!))!;
    hints = hintsFor(await realRows(t.database.handle.db, persona.email, PERSONAS.map((p) => p.email)));
    snapshot = await snapshotOf(t.database.handle.db);
  });
  afterAll(async () => {
    for (const [operationId, tally] of tallies) {
      console.log(`[fuzz] ${persona.email} ${operationId}: ${tally.valid} valid, ${tally.invalid} invalid → ${histogram(tally.statuses)} (valid ones: ${histogram(tally.validStatuses)})`);
    }
    await t?.close();
  });

  /** The request with CURRENT_VERSION replaced by the version the user of its path has now (1 when there is none). */
  async function withCurrentVersion({ url, headers, payload }: FuzzRequest) {
    const marker = String(CURRENT_VERSION);
    if (!payload?.includes(marker) && !headers['if-match']?.includes(marker)) return { url, headers, payload };
    const id = decodeURIComponent(/^\/api\/v2\/users\/([^/?]+)/.exec(url)?.[1] ?? '');
    const row = UUID.test(id) ? await t.database.handle.db.selectFrom('users').select('version').where('id', '=', id).executeTakeFirst() : undefined;
    const version = String(row?.version ?? 1);
    const ifMatch = headers['if-match']?.replace(marker, version);
    return { url, headers: { ...headers, ...(ifMatch !== undefined ? { 'if-match': ifMatch } : {}) }, payload: payload?.replaceAll(marker, version) };
  }

  /**
   * The status with which the server's policy refuses this persona the operation outright, before reading its
   * input (server/plugins/operation-guard.ts, issue 19: 403, or 404 for a user out of reach), whatever the
   * request, valid or not; null when the operation goes on to the contract's validation.
   */
  function refusedOutright(op: Operation, url: string): number | null {
    const names = [...op.route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const pattern = new RegExp(`^${op.route.replace(/\{\w+\}/g, '([^/?]*)')}(?:\\?|$)`);
    const values = pattern.exec(url)?.slice(1) ?? [];
    const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(values[i] ?? '')]));
    try {
      requireMayCallOperation(actor, op.operationId, { params });
      return null;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'forbidden') return 403;
      if (error instanceof DomainError && error.kind === 'notFound') return 404;
      throw error;
    }
  }

  /** Sends the request; throws, with what went wrong, when the answer breaks a rule of the fuzz. */
  async function check(op: Operation, request: FuzzRequest, tally: Tally, state: { before: State | null }) {
    state.before ??= await snapshot.take();
    const sent = await withCurrentVersion(request);
    const answer = await t.app.inject({
      method: request.method,
      url: sent.url,
      headers: { ...sent.headers, authorization: `Bearer ${token}` },
      ...(sent.payload !== undefined ? { payload: sent.payload } : {}),
    });
    const status = answer.statusCode;
    const isJson = String(answer.headers['content-type'] ?? '').includes('json');
    const body: unknown = answer.body === '' ? undefined : isJson ? answer.json() : answer.body;
    const error = (typeof body === 'object' && body !== null ? body : {}) as { requestId?: string; fieldErrors?: unknown };
    add(tally.statuses, status);
    if (process.env.FUZZ_DEBUG && !request.invalid && status >= 400) console.log(`[debug] ${op.operationId} ${status} ${JSON.stringify(body).slice(0, 300)} <- ${request.payload?.slice(0, 300)}`);
    if (request.invalid) tally.invalid++;
    else {
      tally.valid++;
      add(tally.validStatuses, status);
    }
    const refused = status >= 400 && status < 500;
    const before = state.before;
    const compared = refused ? await snapshot.compare(before) : null;
    const unchanged = compared === null || compared.unchanged;
    // Kept for the next request after a refusal or a successful read; taken again after anything else. (Reads do
    // not write; getCurrentUser records the sign-in, but it takes no input: no refusal of it follows. An export is
    // a read that records itself in the journal.)
    state.before = compared ? compared.after : request.method === 'GET' && status < 300 && !READS_THAT_WRITE.has(op.operationId) ? state.before : null;

    const said = `answered ${status} ${answer.body.slice(0, 400)}`;
    if (status >= 500) throw new Error(`a server error: ${said}`);
    const breach = contractBreach(op, status, body);
    if (breach) throw new Error(`off the contract, ${breach}: ${said}`);
    if (status >= 400 && error.requestId !== answer.headers['x-request-id']) throw new Error(`the error's requestId is not the x-request-id header: ${said}`);
    const outright = refusedOutright(op, sent.url);
    if (outright !== null) {
      if (status !== outright) throw new Error(`an operation this persona may not call answered ${status}, not ${outright} whatever its input: ${said}`);
    } else if (request.invalid && status !== 400) throw new Error(`an invalid request (${request.invalid.kind}) ${said}`);
    else if (request.invalid?.field && !namesField(error.fieldErrors, request.invalid.field)) throw new Error(`the refusal does not name ${request.invalid.field}: ${said}`);
    if (!unchanged) throw new Error(`a ${status} changed the database (table: rows and digests before → after): ${changedTables(before, compared!.after)}; ${said}`);
  }

  it.each(OPERATIONS)('answers every generated request of $operationId within the contract', async (op) => {
    const tally: Tally = { valid: 0, invalid: 0, statuses: new Map(), validStatuses: new Map() };
    tallies.set(op.operationId, tally);
    const state = { before: null as State | null };
    const arbitrary = requestArbitrary(op, hints);
    await fc.assert(
      fc.asyncProperty(arbitrary, (request) => check(op, request, tally, state)),
      { numRuns: RUNS, seed: seedOf(op.operationId, persona.email) },
    );
    // Valid requests reach the handlers (real ids and codes, values the handlers accept): not all of them end
    // in a handler's 400 or a 404. (How many succeed depends on what the operations before did to the data.)
    const reached = [...tally.validStatuses.keys()].some((s) => s !== 400 && s !== 404);
    expect(reached, `no valid request of ${op.operationId} got past the checks and lookups: ${histogram(tally.validStatuses)}`).toBe(true);
  }, Math.max(30_000, RUNS * 250));
});
