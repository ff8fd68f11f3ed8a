// Issue 9, 'Database faults': under a steady load of reads and writes, PostgreSQL stops for 10 s and starts
// again. While it is down the API answers 503 within 2 s (never hangs) and /readyz says not ready; within 5 s of
// its return the API serves again without a restart; every write acknowledged before, during or after is in the
// database with its whole effect, and none is half-applied. PostgreSQL is a private cluster of this test
// (tests/support/private-postgres.ts): the shared one serves other test files meanwhile.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverEnv, tokenSigner } from '../../bench/server-env.ts';
import { freePort } from '../../bench/server-process.ts';
import { requirePostgresBinaries, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.ts';
import { startSteadyLoad, type Acknowledged, type LoadSetup, type Sample } from './db-load.ts';
import { findHalfApplied, findMissingEffects } from './db-effects.ts';
import { startWatchedServer, type WatchedServer } from './support/server-process.ts';
import { withClient } from './support/database.ts';

const OUTAGE_MS = 10_000;
const ANSWER_BOUND_MS = 2_000;
const RECOVERY_BOUND_MS = 5_000;
const BACK_OFFICE = 'backoffice@portail.test';
const EMPLOYER_ADMIN = 'admin.clinique@portail.test';

const PERSON = { firstName: 'Claude', lastName: 'Résilience', jobTitle: 'Comptable', phoneNumber: '0612345678', street: '3 place Bellecour', postalCode: '69002', city: 'Lyon' };

const binaries = requirePostgresBinaries('tests/resilience/db-faults');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ok = (status: number) => status >= 200 && status < 300;
/** Samples as lines, for a failure message that stays readable. */
const described = (list: Sample[]) => list.slice(0, 12).map((s) => `${s.loop}: ${s.status} after ${Math.round(s.end - s.start)} ms`).join('\n');
/** No sample in `list`; else a failure naming the first of them. */
const expectNone = (list: Sample[], what: string) => expect(list.length, `${what}:\n${described(list)}`).toBe(0);


/** When the fault began and ended (performance.now()). */
interface Timeline {
  stopping: number;
  stopped: number;
  starting: number;
  started: number;
}

describe.runIf(binaries !== null)('PostgreSQL stopped for 10 s under a steady load, then started again', () => {
  let cluster: PrivatePostgres | undefined;
  let server: WatchedServer | undefined;
  let dataDir: string;
  let samples: Sample[];
  let acknowledged: Acknowledged;
  let t: Timeline;
  let initialVersions: Map<string, number>;
  let exitedDuringRun = false;

  /** Everything the load and the test need, made through the API as the back office would. */
  async function prepare(origin: string): Promise<LoadSetup> {
    const sign = await tokenSigner(dataDir, origin);
    const subjects = await withClient(cluster!.url, async (c) => (await c.query<{ email: string; auth_id: string }>('select email, auth_id from users where email = any($1)', [[BACK_OFFICE, EMPLOYER_ADMIN]])).rows);
    const token = async (email: string) => sign(subjects.find((s) => s.email === email)!.auth_id, email);
    const backoffice = await token(BACK_OFFICE);
    const get = async (url: string) => {
      const answer = await fetch(`${origin}${url}`, { headers: { authorization: `Bearer ${backoffice}` } });
      expect(answer.status, url).toBe(200);
      return answer.json();
    };
    const siren = (await get('/api/v2/organizations?type=SIREN&search=Clinique%20des%20Tilleuls')).items[0];
    const sirets = (await get(`/api/v2/organizations?type=SIRET&parentId=${siren.id}`)).items.slice(0, 2);
    const roles = (await get('/api/v2/roles')) as { id: number; code: string }[];
    const roleIds = ['COMPTABLE', 'GESTIONNAIRE'].map((code) => roles.find((r) => r.code === code)!.id);
    const updatedUsers = [];
    for (const n of [1, 2]) {
      const email = `resilience.updated.${n}.${Date.now().toString(36)}@exemple-test.fr`;
      const answer = await fetch(`${origin}/api/v2/users/complete`, {
        method: 'POST',
        headers: { authorization: `Bearer ${backoffice}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...PERSON, email, organizationCodes: [sirets[0].code], roleIds: [roleIds[0]] }),
      });
      expect(answer.status, await answer.clone().text()).toBe(201);
      updatedUsers.push({ id: (await answer.json()).user.id as string, email });
    }
    return { origin, backoffice, employerAdmin: await token(EMPLOYER_ADMIN), updatedUsers, sirenCode: siren.code, siretCodes: sirets.map((s: { code: string }) => s.code), roleIds };
  }

  beforeAll(async () => {
    cluster = await startPrivatePostgres(binaries!);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-db-faults-'));
    const port = await freePort();
    server = await startWatchedServer({ ...serverEnv({ databaseUrl: cluster.url, port, dataDir, poolSize: 10 }), SEED_DEMO_DATA: 'true', LOG_LEVEL: 'warn' }, port);
    void server.exited.then(() => (exitedDuringRun = true));
    const setup = await prepare(server.origin);
    initialVersions = new Map(
      await withClient(cluster.url, async (c) => (await c.query<{ id: string; version: number }>('select id, version from users where id = any($1)', [setup.updatedUsers.map((u) => u.id)])).rows.map((r) => [r.id, r.version])),
    );

    const load = startSteadyLoad(setup);
    await sleep(3_000);
    t = { stopping: performance.now(), stopped: 0, starting: 0, started: 0 };
    await cluster.stop('fast');
    t.stopped = performance.now();
    await sleep(OUTAGE_MS - (t.stopped - t.stopping));
    t.starting = performance.now();
    await cluster.start();
    t.started = performance.now();
    // The load goes on past the recovery bound, to show that the API serves as before.
    await sleep(RECOVERY_BOUND_MS + 3_000);
    await load.stop();
    ({ samples, acknowledged } = load);
    report();
  });

  afterAll(async () => {
    await server?.kill();
    await cluster?.dispose();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    expect(cluster?.processes() ?? []).toEqual([]);
  });

  const duringOutage = () => samples.filter((s) => s.start >= t.stopped && s.start < t.starting);
  /** Under way at some moment between the stop's beginning and the start's (not only those begun while it was down). */
  const overlappingFault = () => samples.filter((s) => s.start < t.starting && s.end > t.stopping);
  const firstSuccessAfterReturn = (kind: Sample['kind']) => {
    const served = samples.filter((s) => s.kind === kind && s.start >= t.started && ok(s.status)).sort((a, b) => a.end - b.end)[0];
    return served ? served.end - t.started : Number.POSITIVE_INFINITY;
  };

  function report() {
    const outage = duringOutage().filter((s) => s.kind !== 'probe');
    const slowest = (list: Sample[]) => Math.max(0, ...list.map((s) => s.end - s.start)).toFixed(0);
    const unavailable = samples.filter((s) => s.status === 503);
    const counts = new Map<number, number>();
    for (const s of outage) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
    const byStatus = [...counts].map(([status, n]) => `${status}: ${n}`);
    console.log(
      [
        `[db-faults] PostgreSQL down ${((t.starting - t.stopping) / 1000).toFixed(1)} s (fast stop ${(t.stopped - t.stopping).toFixed(0)} ms, start ${(t.started - t.starting).toFixed(0)} ms)`,
        `  requests while down: ${outage.length} (${byStatus.join(', ')}), readiness probes: ${duringOutage().filter((s) => s.kind === 'probe').length}`,
        `  slowest 503: ${slowest(unavailable.filter((s) => s.kind !== 'probe'))} ms (readiness ${slowest(unavailable.filter((s) => s.kind === 'probe'))} ms); slowest answer overlapping the fault: ${slowest(overlappingFault())} ms`,
        `  recovery after PostgreSQL accepted connections: first read ${firstSuccessAfterReturn('read').toFixed(0)} ms, first write ${firstSuccessAfterReturn('write').toFixed(0)} ms`,
        `  requests in all: ${samples.length}; writes acknowledged: ${acknowledged.updates.length} updates, ${acknowledged.invitations.length} invitations, ${acknowledged.approvals.length} approvals, ${acknowledged.creations.length} creations`,
      ].join('\n'),
    );
  }

  it('answers every request while PostgreSQL is down with 503 within 2 s, none hanging', () => {
    const outage = duringOutage().filter((s) => s.kind !== 'probe');
    expect(outage.length).toBeGreaterThan(100);
    expectNone(outage.filter((s) => s.status !== 503), 'answered otherwise than 503 while down');
    // Those under way as it stopped or started: 503, or completed (2xx) before it was down or once it was back; in time as well.
    const allowed = (s: Sample) => s.status === 503 || (ok(s.status) && (s.start < t.stopped || s.end > t.starting)) || (s.status === 409 && s.retriedAfter503);
    expectNone(overlappingFault().filter((s) => !allowed(s)), 'answered otherwise than 503 or 2xx as it stopped or started');
    expectNone(overlappingFault().filter((s) => s.end - s.start > ANSWER_BOUND_MS), 'answered after more than 2 s (0: no answer)');
  });

  it('says not ready on /readyz within 2 s while PostgreSQL is down, and ready once it is back', () => {
    const probes = duringOutage().filter((s) => s.kind === 'probe');
    expect(probes.length).toBeGreaterThan(20);
    expectNone(probes.filter((s) => s.status !== 503 || s.end - s.start > ANSWER_BOUND_MS), 'readiness not 503 within 2 s while down');
    expectNone(samples.filter((s) => s.kind === 'probe' && s.start >= t.started + RECOVERY_BOUND_MS && s.status !== 200), 'not ready once back');
  });

  it('serves reads and writes again within 5 s of PostgreSQL accepting connections, without a restart', () => {
    expect(firstSuccessAfterReturn('read')).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    expect(firstSuccessAfterReturn('write')).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    const after = samples.filter((s) => s.start >= t.started + RECOVERY_BOUND_MS);
    expect(after.filter((s) => s.kind === 'write').length).toBeGreaterThan(10);
    expectNone(after.filter((s) => !ok(s.status)), 'failed more than 5 s after the return');
    // The same process throughout: it neither crashed nor was restarted.
    expect(exitedDuringRun, server!.log().slice(-3000)).toBe(false);
  });

  it('answers 2xx or 503 before and after the fault, nothing else (an approval retried after a 503 may find it already done)', () => {
    const outside = samples.filter((s) => s.end <= t.stopping || s.start >= t.started);
    expectNone(outside.filter((s) => !(ok(s.status) || s.status === 503 || (s.status === 409 && s.retriedAfter503))), 'answered otherwise than 2xx or 503');
    expectNone(samples.filter((s) => s.end <= t.stopping && !ok(s.status)), 'failed before the fault');
  });

  it('keeps every acknowledged write with its whole effect: updates, invitations, approvals, creations', async () => {
    expect(acknowledged.updates.length).toBeGreaterThan(10);
    expect(acknowledged.approvals.length).toBeGreaterThan(3);
    expect(acknowledged.creations.length).toBeGreaterThan(5);
    const missing = await withClient(cluster!.url, (c) => findMissingEffects(c, acknowledged));
    expect(missing).toEqual([]);
  });

  it('leaves no write half-applied, acknowledged or not (audit, accounts, assignments, versions, list counters)', async () => {
    const halfApplied = await withClient(cluster!.url, (c) => findHalfApplied(c, initialVersions));
    expect(halfApplied).toEqual([]);
  });
});
