// `npm run bench:bulk` (issue 22): 10,000 users deactivated in one job (POST /api/v2/users/bulk-actions) on the
// benchmark database (DATABASE_URL, 1M users after `npm run bench:seed`), while the read scenarios of `npm run bench`
// load the server slice after slice: the job's duration (its createdAt to its finishedAt), and each scenario's p95
// before the job and while it runs. The persons are then reactivated by a second job, so that the database is as it
// was. The server runs as `npm run bench` starts it (production, plain HTTP, pool 32), its worker included.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { checkBenchDatabase } from './args.ts';
import { bulkMarkdown, parseBulkArgs, type BulkReport, type SliceResult } from './bulk-report.ts';
import { CpuMeter } from './cpu.ts';
import { fetchRetrying } from './retry.ts';
import { runLoad } from './load.ts';
import { BACK_OFFICE, buildScenarios, sampleScenarioData, type Scenario } from './scenarios.ts';
import { freePort, startServer, type ServerProcess } from './server-process.ts';
import { BENCH_POOL_SIZE, serverEnv, tokenSigner } from './server-env.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORK = path.join(ROOT, 'bench', '.work');
const RESULTS = path.join(ROOT, 'bench', 'results');
const say = (line: string) => console.log(`[bench:bulk] ${line}`);

interface Job {
  id: string;
  status: 'running' | 'completed';
  processed: number;
  succeeded: number;
  refusals: unknown[];
  createdAt: string;
  finishedAt: string | null;
}

async function api<T>(server: ServerProcess, token: string, method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
  const send = () =>
    fetch(`${server.origin}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  // A read is sent again when the server asks to wait (503 or 429 with Retry-After); starting a job is not.
  const answer = method === 'GET' ? await fetchRetrying(send, { onRetry: (status, ms) => say(`${method} ${route} answered ${status}: tried again in ${ms} ms`) }) : await send();
  if (answer.status >= 300) throw new Error(`${method} ${route} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as T;
}

/** Starts a job and answers a promise of it completed (read every 250 ms), with the RSS peak seen meanwhile. */
async function startJob(server: ServerProcess, token: string, action: string, userIds: string[]) {
  const started = await api<Job>(server, token, 'POST', '/api/v2/users/bulk-actions', { action, userIds });
  let rssPeakMb = server.rssMb();
  let last = started;
  const completed = (async () => {
    while (last.status !== 'completed') {
      await new Promise((resolve) => setTimeout(resolve, 250));
      rssPeakMb = Math.max(rssPeakMb, server.rssMb());
      last = await api<Job>(server, token, 'GET', `/api/v2/users/bulk-actions/${started.id}`);
    }
    return { job: last, rssPeakMb, seconds: (Date.parse(last.finishedAt!) - Date.parse(last.createdAt)) / 1000 };
  })();
  return { isRunning: () => last.status !== 'completed', completed };
}

async function slice(server: ServerProcess, scenario: Scenario, token: string, seconds: number, connections: number): Promise<SliceResult> {
  const result = await runLoad({ url: server.origin, connections, duration: seconds, token, variants: scenario.variants });
  return { scenario: scenario.name, p95: result.p95, rps: result.rps, errors: result.errors };
}

async function main() {
  const args = parseBulkArgs(process.argv.slice(2));
  const url = process.env.DATABASE_URL;
  const name = checkBenchDatabase(url, args.force);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const users = Number((await client.query('select count(*)::int as n from users')).rows[0].n);
  // Active organization users, none of the demo accounts (the scenarios sign in as some of them).
  const ids = (
    await client.query(`select id from users where user_type = 'ORGANIZATION' and is_active and email not like '%@portail.test' order by id limit $1`, [args.persons])
  ).rows.map((r) => r.id as string);
  if (ids.length < args.persons) throw new Error(`only ${ids.length} active organization users in ${name}: seed it again`);
  // The read scenarios this data set gives targets to (the journal's need entries: npm run bench:journal).
  const scenarios = args.alone ? [] : buildScenarios(await sampleScenarioData(client, 0)).filter((s) => s.kind === 'read' && s.variants.length > 0);
  const subjects = new Map<string, string>();
  for (const email of new Set([BACK_OFFICE, ...scenarios.map((s) => s.as)])) subjects.set(email, (await client.query('select auth_id from users where email = $1', [email])).rows[0].auth_id);

  const dataDir = path.join(WORK, 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const server = await startServer({ env: serverEnv({ databaseUrl: url!, port, dataDir, poolSize: BENCH_POOL_SIZE }), port, logFile: path.join(WORK, 'bulk-server.log'), root: ROOT });
  const sign = await tokenSigner(dataDir, server.origin);
  const tokens = new Map<string, string>();
  for (const [email, subject] of subjects) tokens.set(email, await sign(subject, email));
  const backOffice = tokens.get(BACK_OFFICE)!;
  try {
    say(`${users.toLocaleString('en')} users; ${scenarios.length} read scenarios, ${args.slice} s each, ${args.connections} connections`);
    const before: SliceResult[] = [];
    if (!args.alone) for (const scenario of scenarios) before.push(await slice(server, scenario, tokens.get(scenario.as)!, args.slice, args.connections));

    say(`deactivating ${ids.length.toLocaleString('en')} users in one job, ${args.alone ? 'alone' : 'the scenarios running meanwhile'}`);
    const cpu = new CpuMeter(server.pid);
    cpu.start();
    const loadAtStart = os.loadavg()[0]!;
    const job = await startJob(server, backOffice, 'deactivate', ids);
    const during: SliceResult[] = [];
    for (let i = 0; !args.alone && job.isRunning(); i += 1) {
      const scenario = scenarios[i % scenarios.length]!;
      const result = await slice(server, scenario, tokens.get(scenario.as)!, args.slice, args.connections);
      if (job.isRunning()) during.push(result);
    }
    const done = await job.completed;
    const loadAverage: [number, number] = [loadAtStart, os.loadavg()[0]!];
    const { busy, others } = cpu.stop();
    say(`job: ${done.job.succeeded.toLocaleString('en')} succeeded, ${done.job.refusals.length} refused, in ${done.seconds.toFixed(1)} s`);

    say('reactivating them (a second job, no other load)');
    const restore = await (await startJob(server, backOffice, 'reactivate', ids)).completed;
    const report: BulkReport = {
      at: new Date().toISOString(),
      database: name,
      users,
      persons: ids.length,
      cpus: os.cpus().length,
      node: process.version,
      jobSeconds: done.seconds,
      succeeded: done.job.succeeded,
      refusals: done.job.refusals.length,
      restoreSeconds: restore.seconds,
      rssPeakMb: done.rssPeakMb,
      alone: args.alone,
      loadAverage,
      cpusBusy: busy,
      cpusOthers: others,
      before,
      during,
    };
    const markdown = bulkMarkdown(report);
    console.log(markdown);
    fs.mkdirSync(RESULTS, { recursive: true });
    // The job alone is written apart: bulk-latest.* keep the full run's figures.
    const file = args.alone ? 'bulk-alone-latest' : 'bulk-latest';
    fs.writeFileSync(path.join(RESULTS, `${file}.json`), JSON.stringify(report, null, 2) + '\n');
    fs.writeFileSync(path.join(RESULTS, `${file}.md`), markdown);
  } finally {
    await server.stop();
    await client.end();
  }
}

await main();
