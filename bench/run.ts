// npm run bench [-- --sizes 10000,100000,1000000] [--duration 10] [--connections 32] [--only users-] [--reseed] [--force]
// Starts the server in production mode on each database and drives it scenario by scenario with autocannon
// from this process; beside each scenario, the same SQL straight through pg (the database floor), and
// GET /healthz (the HTTP floor). Prints one table per size, and writes bench/results/latest.{json,md}.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { parseBenchArgs, type BenchArgs } from './args.ts';
import { startCapturer, type Statement } from './capture.ts';
import { pendingBackfills, readBackfills } from './backfills.ts';
import { sizeLabel } from './dataset.ts';
import { runFloor } from './floor.ts';
import { runLoad, WARM_UP_SECONDS } from './load.ts';
import { prepareDatabases } from './databases.ts';
import { databaseName } from './names.ts';
import { CpuMeter } from './cpu.ts';
import type { Measure } from './stats.ts';
import { consoleReport, markdownReport, type BenchReport, type ScenarioResult, type SizeRun } from './report.ts';
import { buildScenarios, restoreWrites, sampleScenarioData, type Scenario } from './scenarios.ts';
import { countRows } from './seed-runner.ts';
import { freePort, startServer, type ServerProcess } from './server-process.ts';
import { BENCH_POOL_SIZE, serverEnv, tokenSigner } from './server-env.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORK = path.join(ROOT, 'bench', '.work');
const RESULTS = path.join(ROOT, 'bench', 'results');

const say = (line: string) => console.log(`[bench] ${line}`);

/** What a request answered, in a few words (its total, or its id). */
function answerOf(body: string): string {
  try {
    const json = JSON.parse(body) as { total?: number; totalCount?: number; id?: number | string; status?: string; user?: { id: string } };
    const total = json.total ?? json.totalCount;
    if (typeof total === 'number') return `total ${total.toLocaleString('en')}`;
    if (json.status) return `${json.status}`;
    return 'ok';
  } catch {
    return 'ok';
  }
}

async function benchSize(target: { url: string; users: number }, args: BenchArgs): Promise<SizeRun> {
  const label = sizeLabel(target.users);
  const loadBefore = os.loadavg()[0]!;
  const dataDir = path.join(WORK, 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const env = serverEnv({ databaseUrl: target.url, port, dataDir, poolSize: BENCH_POOL_SIZE });
  const origin = `http://127.0.0.1:${port}`;
  const selected = (name: string) => args.only.length === 0 || args.only.some((o) => name.includes(o));
  const writes = selected('invitation-approve') || selected('invitation-reject') ? Math.max(200, 200 * args.duration) : 0;

  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  let scenarios: Scenario[];
  let counts: SizeRun['counts'];
  // Per scenario: the statements of a first request, and those of the same request again (what a running
  // server executes: a filtered total is then kept, see server/db/list-totals.ts).
  const firstSequences = new Map<string, Statement[][]>();
  const sequences = new Map<string, Statement[][]>();
  const answers = new Map<string, string>();
  const tokens = new Map<string, string>();
  let server: ServerProcess | undefined;
  try {
    const pending = pendingBackfills(await readBackfills(client));
    if (pending.length > 0) throw new Error(`${databaseName(target.url)}: backfills not through, which the server's jobs would run during the measures: ${pending.join('; ')}`);
    counts = await countRows({ run: async () => undefined, rows: async (sql) => (await client.query(sql)).rows });
    say(`${label}: sampling the scenarios' targets and making ${writes.toLocaleString('en')} pending invitations per write scenario`);
    scenarios = buildScenarios(await sampleScenarioData(client, writes)).filter((s) => selected(s.name));
    const sign = await tokenSigner(dataDir, origin);
    for (const email of new Set(scenarios.map((s) => s.as))) {
      const subject = (await client.query('select auth_id from users where email = $1', [email])).rows[0]?.auth_id as string | undefined;
      if (!subject) throw new Error(`${email} is missing from ${databaseName(target.url)}: seed it again`);
      tokens.set(email, await sign(subject, email));
    }

    // The server first: its start-up writes (reference data) come before the captures, which must see the
    // data as the measured requests will.
    say(`${label}: starting the server (production mode, pool of ${BENCH_POOL_SIZE})`);
    server = await startServer({ env, port, logFile: path.join(WORK, `server-${label}.log`), root: ROOT });
    say(`${label}: capturing the SQL of each request (the server's code, in this process)`);
    const capturer = await startCapturer(env);
    const captureScenario = async (scenario: Scenario) => {
      const first: Statement[][] = [];
      const again: Statement[][] = [];
      for (const variant of scenario.variants) {
        for (const pass of scenario.kind === 'read' ? [first, again] : [first]) {
          const answer = await capturer.capture({ ...variant, token: tokens.get(scenario.as)! });
          if (answer.status < 200 || answer.status >= 300) throw new Error(`${scenario.name}: ${variant.method} ${variant.path} answered ${answer.status} ${answer.body.slice(0, 300)}`);
          if (first.length === 0) answers.set(scenario.name, answerOf(answer.body));
          pass.push(answer.statements);
        }
      }
      firstSequences.set(scenario.name, first);
      sequences.set(scenario.name, scenario.kind === 'read' ? again : first);
    };
    try {
      // Writes first, undone at once: a read's second capture then holds the list version the server will
      // see (its kept totals, server/db/list-totals.ts), and nothing changes the data until the reads are measured.
      const writeScenarios = scenarios.filter((s) => s.kind === 'write');
      for (const scenario of writeScenarios) await captureScenario(scenario);
      for (const scenario of writeScenarios) await restoreWrites(client, idsOf(scenario));
      for (const scenario of scenarios.filter((s) => s.kind === 'read')) await captureScenario(scenario);
    } finally {
      await capturer.close();
    }
  } catch (error) {
    await server?.stop();
    await client.end();
    throw error;
  }

  const results: ScenarioResult[] = [];
  let httpFloor;
  try {
    const healthz = [{ method: 'GET' as const, path: '/healthz' }];
    await runLoad({ url: origin, connections: args.connections, duration: WARM_UP_SECONDS, variants: healthz });
    httpFloor = await runLoad({ url: origin, connections: args.connections, duration: args.duration, variants: healthz });
    say(`${label}: HTTP floor p50 ${httpFloor.p50.toFixed(2)} ms, ${Math.round(httpFloor.rps)} req/s`);
    for (const scenario of scenarios) {
      const token = tokens.get(scenario.as)!;
      const captured = sequences.get(scenario.name)!;
      let rssMb = server.rssMb();
      const sample = () => (rssMb = Math.max(rssMb, server.rssMb()));
      let http: Measure & { statuses?: Record<string, number> };
      let db: Measure;
      let machine: ScenarioResult['machine'];
      let firstRequest = Number.NaN;
      const cpu = new CpuMeter(server.pid);
      if (scenario.kind === 'read') {
        await runLoad({ url: origin, connections: args.connections, duration: WARM_UP_SECONDS, token, variants: scenario.variants });
        cpu.start();
        http = await runLoad({ url: origin, connections: args.connections, duration: args.duration, token, variants: scenario.variants, onTick: sample });
        machine = cpu.stop();
        db = await runFloor({ url: target.url, connections: BENCH_POOL_SIZE, sequences: captured, duration: args.duration });
        // A first request's statements (a filtered total counted, not kept), one at a time.
        firstRequest = (await runFloor({ url: target.url, connections: 1, sequences: firstSequences.get(scenario.name)!, duration: Math.min(3, args.duration) })).p50;
      } else {
        // Each pending invitation once: the floor replays the captured decisions, then the server makes them again.
        db = await runFloor({ url: target.url, connections: BENCH_POOL_SIZE, sequences: captured, once: true });
        await restoreWrites(client, idsOf(scenario));
        cpu.start();
        http = await runLoad({ url: origin, connections: args.connections, amount: scenario.variants.length, token, variants: scenario.variants, onTick: sample });
        machine = cpu.stop();
      }
      sample();
      const statements = captured.reduce((sum, s) => sum + s.length, 0) / Math.max(1, captured.length);
      results.push({ name: scenario.name, title: scenario.title, kind: scenario.kind, variants: scenario.variants.length, statements, answer: answers.get(scenario.name) ?? '', http, db, firstRequestDbMs: firstRequest, rssMb, machine });
      say(
        `${label}: ${scenario.name.padEnd(24)} p50 ${http.p50.toFixed(2)} p95 ${http.p95.toFixed(2)} ms, ${Math.round(http.rps)} req/s, ${http.errors} errors` +
          ` | DB floor p50 ${db.p50.toFixed(2)} ms, ${Math.round(db.rps)}/s | RSS ${Math.round(rssMb)} MB | CPUs busy ${machine.busy.toFixed(2)}, others ${machine.others.toFixed(2)} | ${answers.get(scenario.name)}`,
      );
    }
  } finally {
    await server.stop();
    await client.end();
  }
  return { users: target.users, label, database: databaseName(target.url), counts, httpFloor, scenarios: results, load: { before: loadBefore, after: os.loadavg()[0]!, cpus: os.cpus().length } };
}

function idsOf(scenario: Scenario): number[] {
  return scenario.variants.map((v) => Number(/invitations\/(\d+)\//.exec(v.path)?.[1]));
}

async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return String((await client.query('show server_version')).rows[0].server_version);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const args = parseBenchArgs(process.argv.slice(2));
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error('DATABASE_URL is not set: the PostgreSQL database seeded by npm run bench:seed');
  const targets = await prepareDatabases(args, baseUrl, say);
  const report: BenchReport = {
    generatedAt: new Date().toISOString(),
    settings: { connections: args.connections, duration: args.duration, poolSize: BENCH_POOL_SIZE, node: process.version, postgres: await postgresVersion(baseUrl) },
    runs: [],
  };
  for (const target of targets) report.runs.push(await benchSize(target, args));
  console.log(consoleReport(report));
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'latest.md'), markdownReport(report));
  say(`written: bench/results/latest.json, bench/results/latest.md`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
