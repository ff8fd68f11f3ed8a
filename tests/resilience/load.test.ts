// Issue 9, 'Load': the server as production runs it (its own process, NODE_ENV=production, plain HTTP behind a
// load balancer, PostgreSQL), 64 connections of mixed reads and writes for 60 s: no error, memory stable, and
// every acknowledged write in the database afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, startServer, type ServerProcess } from '../../bench/server-process.ts';
import { serverEnv } from '../../bench/server-env.ts';
import { summarize, type Measure } from '../../bench/stats.ts';
import { caller, tokensFor } from './support/api.ts';
import { runAutocannon, type LoadResult } from './support/autocannon.ts';
import { createOwnDatabase, describeOnPostgres, type OwnDatabase } from './support/database.ts';
import { checkLanes } from './support/load-checks.ts';
import { laneRequests, newLane, WRITE_KINDS, type Lane, type MixSettings, type Refusal } from './support/load-mix.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONNECTIONS = 64;
const DURATION_S = 60;
const BACK_OFFICE = 'backoffice@portail.test';
const EMPLOYER_ADMIN = 'admin.clinique@portail.test';
const INVITED_ROLE = 'COMPTABLE';

interface Sample {
  second: number;
  mb: number;
}

const EARLY: [number, number] = [10, 20];
const LATE: [number, number] = [DURATION_S - 10, DURATION_S];
/** When the server is asked for its live memory (support/heap-probe.mjs): three times in each window. */
const PROBES = [EARLY[0] + 2, EARLY[0] + 5, EARLY[0] + 8, LATE[0] + 2, LATE[0] + 5, LATE[0] + 8];

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const within = (samples: Sample[], [from, to]: [number, number]) => samples.filter((s) => s.second >= from && s.second <= to).map((s) => s.mb);
const figures = (mbs: number[]) => `mean ${mean(mbs).toFixed(1)} MB (max ${Math.max(...mbs).toFixed(1)})`;

/** The probe's answers: memory held after a full collection (heap and external), by second of the load. */
function liveMemory(probeFile: string, startedAt: number): Sample[] {
  if (!fs.existsSync(probeFile)) return [];
  return fs
    .readFileSync(probeFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { at: number; heapUsed: number; external: number })
    .map((p) => ({ second: (p.at - startedAt) / 1000, mb: (p.heapUsed + p.external) / 1048576 }));
}

/** One organization user per connection, made through the API on the first establishment of the employer. */
async function makeLaneUsers(call: ReturnType<typeof caller>, siretCode: string, roleId: number): Promise<Lane[]> {
  const lanes: Lane[] = [];
  for (let batch = 0; batch < CONNECTIONS; batch += 8) {
    const made = await Promise.all(
      Array.from({ length: 8 }, async (_, k) => {
        const i = batch + k;
        const person = { firstName: 'Camille', lastName: `Charge ${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`, email: `charge.${i}@exemple-charge.fr` };
        const answer = await call('POST', '/api/v2/users/complete', { ...person, jobTitle: 'Charge de mission', street: '1 rue des Tilleuls', postalCode: '69001', city: 'Lyon', organizationCodes: [siretCode], roleIds: [roleId] });
        if (answer.status !== 201) throw new Error(`user ${i}: ${answer.status} ${JSON.stringify(answer.body)}`);
        return newLane(i, { id: answer.body.user.id as string, ...person });
      }),
    );
    lanes.push(...made);
  }
  return lanes;
}

/** 64 connections for 60 s, each looping over its lane; the server's RSS read every second, its live memory probed. */
function drive(origin: string, lanes: Lane[], settings: MixSettings, refusals: Refusal[], server: ServerProcess) {
  const latencies: number[] = [];
  const rss: Sample[] = [];
  let next = 0;
  const started = performance.now();
  const startedAt = Date.now();
  return new Promise<{ result: LoadResult; measure: Measure; rss: Sample[]; startedAt: number }>((resolve, reject) => {
    const sampler = setInterval(() => rss.push({ second: (performance.now() - started) / 1000, mb: server.rssMb() }), 1000);
    const probes = PROBES.map((second) => setTimeout(() => process.kill(server.pid, 'SIGUSR2'), second * 1000));
    const instance = runAutocannon(
      {
        url: origin,
        connections: CONNECTIONS,
        duration: DURATION_S,
        timeout: 10,
        requests: [{ method: 'GET', path: '/healthz' }],
        setupClient: (client) => client.setRequests(laneRequests(lanes[next++ % lanes.length]!, settings, refusals)),
      },
      (error, result) => {
        clearInterval(sampler);
        for (const probe of probes) clearTimeout(probe);
        if (error) return reject(error);
        const failed = refusals.length + result.errors;
        resolve({ result, measure: summarize(latencies, failed, (performance.now() - started) / 1000), rss, startedAt });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
}

describeOnPostgres(`the production server under ${DURATION_S} s of mixed reads and writes on ${CONNECTIONS} connections`, () => {
  let database: OwnDatabase | undefined;
  let server: ServerProcess | undefined;
  let dataDir: string | undefined;
  let lanes: Lane[] = [];
  const refusals: Refusal[] = [];
  const initialVersions = new Map<string, number>();
  let run: Awaited<ReturnType<typeof drive>>;
  let live: Sample[] = [];
  let siretCode: string;

  const stopServer = async () => {
    const running = server;
    server = undefined;
    await running?.stop();
  };

  beforeAll(async () => {
    database = await createOwnDatabase('load');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-load-'));
    const port = await freePort();
    const env = {
      // Production's default pool (DATABASE_POOL_SIZE 10). A larger one does worse here: PostgreSQL shares
      // the same 2 CPUs, and 32 connections raised the p99 from about 0.5 s to 0.9 s and the slowest to 3.7 s.
      ...serverEnv({ databaseUrl: database.url, port, dataDir, poolSize: 10 }),
      SEED_DEMO_DATA: 'true',
      // Off on purpose: this test measures capacity, and all 64 connections are the same back-office person,
      // whom the per-user API rate limit (a protection of production) would throttle at once.
      API_RATE_LIMIT_PER_MINUTE: '0',
      // Inert until the test asks it for the server's live memory (see the memory test below).
      NODE_OPTIONS: `--import ${path.join(ROOT, 'tests/resilience/support/heap-probe.mjs')}`,
      HEAP_PROBE_FILE: path.join(dataDir, 'heap-probe.jsonl'),
    };
    server = await startServer({ env, port, logFile: path.join(dataDir, 'server.log'), root: ROOT });
    const origin = `http://127.0.0.1:${port}`;
    const tokens = await tokensFor(database, dataDir, origin, [BACK_OFFICE, EMPLOYER_ADMIN]);
    const [siret] = await database.query<{ code: string }>(
      `select s.code from organizations s join organizations p on p.id = s.parent_id where p.name = 'Clinique des Tilleuls' and s.type = 'SIRET' order by s.code limit 1`,
    );
    siretCode = siret!.code;
    const [role] = await database.query<{ id: number }>(`select id from roles where code = 'GESTIONNAIRE'`);
    lanes = await makeLaneUsers(caller(origin, tokens.get(BACK_OFFICE)!), siretCode, role!.id);
    for (const row of await database.query<{ id: string; version: number }>('select id, version from users where id = any($1::uuid[])', [lanes.map((l) => l.user.id)])) {
      initialVersions.set(row.id, row.version);
    }
    const settings = { backOfficeToken: tokens.get(BACK_OFFICE)!, organizationToken: tokens.get(EMPLOYER_ADMIN)!, siretCode, invitedRole: INVITED_ROLE };
    run = await drive(origin, lanes, settings, refusals, server);
    // Stopped before the checks: every request it had taken is then committed or rolled back.
    await stopServer();

    const { measure, result, rss } = run;
    live = liveMemory(path.join(dataDir, 'heap-probe.jsonl'), run.startedAt);
    const writes = WRITE_KINDS.map((kind) => `${kind} ${lanes.reduce((n, l) => n + l.acked[kind], 0)}`).join(', ');
    console.log(
      [
        `[load] ${measure.requests} requests in ${measure.seconds.toFixed(1)} s on ${CONNECTIONS} connections: ${Math.round(measure.rps)} req/s`,
        `[load] latency p50 ${measure.p50.toFixed(1)} ms, p95 ${measure.p95.toFixed(1)} ms, p99 ${measure.p99.toFixed(1)} ms, max ${measure.max.toFixed(0)} ms`,
        `[load] errors: ${refusals.length} non-2xx, ${result.errors} connection errors, ${result.timeouts} timeouts`,
        `[load] writes acknowledged: ${writes}`,
        `[load] server RSS: ${figures(within(rss, EARLY))} over seconds 10-20, ${figures(within(rss, LATE))} over the last 10 s; every 5 s: ${rss.filter((_, i) => i % 5 === 4).map((r) => r.mb.toFixed(0)).join(' ')}`,
        `[load] server live memory after a full collection: ${figures(within(live, EARLY))} over seconds 10-20, ${figures(within(live, LATE))} over the last 10 s`,
      ].join('\n'),
    );
  }, 240_000);

  afterAll(async () => {
    await stopServer();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every request with a 2xx, without a connection error or a timeout', () => {
    expect(refusals.slice(0, 10), `${refusals.length} answers other than 2xx`).toEqual([]);
    expect({ errors: run.result.errors, timeouts: run.result.timeouts, non2xx: run.result.non2xx }).toEqual({ errors: 0, timeouts: 0, non2xx: 0 });
    // Every lane went round its loop many times, every kind of write included.
    expect(Math.min(...lanes.map((l) => l.cycles))).toBeGreaterThan(5);
    for (const kind of WRITE_KINDS) expect(lanes.every((l) => l.acked[kind] > 0), `every lane had a ${kind} acknowledged`).toBe(true);
  });

  // The memory it holds, not its RSS: under this load V8 lets garbage pile up between its collections, and the
  // RSS of a server that keeps nothing rises and falls between about 180 and 300 MB (printed above), so that two
  // 10 s windows of it differ by up to a quarter at random.
  it('keeps its memory: what it holds in the last 10 s is no more than 10 % above seconds 10 to 20', () => {
    const early = within(live, EARLY);
    const late = within(live, LATE);
    expect([early.length, late.length]).toEqual([3, 3]);
    expect(mean(late)).toBeLessThanOrEqual(mean(early) * 1.1);
  });

  it('holds every acknowledged write, whole, and nothing that was not sent', async () => {
    const problems = await checkLanes(database!, lanes, initialVersions, { role: INVITED_ROLE, siret: siretCode });
    expect(problems.slice(0, 20), `${problems.length} discrepancies`).toEqual([]);
  });
});
