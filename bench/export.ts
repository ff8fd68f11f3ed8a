// `npm run bench:export` (issue 21): GET /api/v2/users/export on the benchmark database (DATABASE_URL, 1M users
// after `npm run bench:seed`): rows per second, and the server's resident memory sampled every 100 ms while the file
// streams; a fast reader, a slow one (backpressure: the server must not buffer what the client has not read), and an
// organization administrator's scope. The server runs as `npm run bench` starts it (production, plain HTTP, pool 32).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { checkBenchDatabase } from './args.ts';
import { CpuMeter } from './cpu.ts';
import { freePort, startServer, type ServerProcess } from './server-process.ts';
import { BENCH_POOL_SIZE, serverEnv, tokenSigner } from './server-env.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORK = path.join(ROOT, 'bench', '.work');
const RESULTS = path.join(ROOT, 'bench', 'results');

interface ExportRun {
  name: string;
  query: string;
  as: string;
  rows: number;
  megabytes: number;
  seconds: number;
  rowsPerSecond: number;
  rssStartMb: number;
  rssPeakMb: number;
  rssEndMb: number;
  /** The server's RSS (MB) at each tenth of the run. */
  rssTimeline: number[];
  cpusBusy: number;
  cpusOthers: number;
  complete: boolean;
}

/** Reads an export; a slow reader pauses between chunks (at most `bytesPerSecond`) and stops after `stopAfterMs`. */
function readExport(server: ServerProcess, token: string, query: string, options: { bytesPerSecond?: number; stopAfterMs?: number } = {}) {
  return new Promise<{ rows: number; bytes: number; seconds: number; complete: boolean; rssPeakMb: number; rssTimeline: number[] }>((resolve, reject) => {
    const started = performance.now();
    const samples: number[] = [server.rssMb()];
    const sampler = setInterval(() => samples.push(server.rssMb()), 100);
    let bytes = 0;
    let records = 0;
    let inQuotes = false;
    const finish = (complete: boolean) => {
      clearInterval(sampler);
      const rssTimeline = Array.from({ length: 11 }, (_, i) => Math.round(samples[Math.min(samples.length - 1, Math.round((i / 10) * (samples.length - 1)))]!));
      resolve({ rows: Math.max(0, records - 1), bytes, seconds: (performance.now() - started) / 1000, complete, rssPeakMb: Math.max(...samples), rssTimeline });
    };
    const request = http.get(`${server.origin}/api/v2/users/export?${query}`, { headers: { authorization: `Bearer ${token}` } }, (response) => {
      if (response.statusCode !== 200) {
        clearInterval(sampler);
        reject(new Error(`export answered ${response.statusCode}`));
        return;
      }
      const stopAt = options.stopAfterMs ? started + options.stopAfterMs : Infinity;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (const byte of chunk) {
          if (byte === 0x22) inQuotes = !inQuotes;
          else if (byte === 0x0a && !inQuotes) records += 1;
        }
        if (performance.now() >= stopAt) {
          request.destroy();
          finish(false);
          return;
        }
        if (options.bytesPerSecond) {
          response.pause();
          setTimeout(() => response.resume(), (chunk.length / options.bytesPerSecond) * 1000);
        }
      });
      response.on('end', () => finish(true));
      response.on('error', reject);
    });
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
  });
}

async function main() {
  const url = process.env.DATABASE_URL;
  const name = checkBenchDatabase(url, process.argv.includes('--force'));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const users = Number((await client.query('select count(*)::int as n from users')).rows[0].n);
  const subjects = new Map<string, string>();
  for (const email of ['backoffice@portail.test', 'admin.clinique@portail.test']) {
    subjects.set(email, (await client.query('select auth_id from users where email = $1', [email])).rows[0]?.auth_id);
  }
  const dataDir = path.join(WORK, 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startServer({ env: serverEnv({ databaseUrl: url!, port, dataDir, poolSize: BENCH_POOL_SIZE }), port, logFile: path.join(WORK, 'export-server.log'), root: ROOT });
  const sign = await tokenSigner(dataDir, origin);
  const runs: ExportRun[] = [];
  const scenarios = [
    { name: 'every user, by name (fast reader)', as: 'backoffice@portail.test', query: 'includeInactive=true' },
    { name: 'active users, last login first (fast reader)', as: 'backoffice@portail.test', query: 'sort=lastLoginAt&order=desc' },
    { name: 'every user, a reader at 2 MB/s stopping after 15 s', as: 'backoffice@portail.test', query: 'includeInactive=true', bytesPerSecond: 2_000_000, stopAfterMs: 15_000 },
    { name: "an organization administrator's scope", as: 'admin.clinique@portail.test', query: 'includeInactive=true' },
  ];
  try {
    for (const scenario of scenarios) {
      const token = await sign(subjects.get(scenario.as)!, scenario.as);
      const rssStartMb = server.rssMb();
      const cpu = new CpuMeter(server.pid);
      cpu.start();
      const result = await readExport(server, token, scenario.query, scenario);
      const { busy, others } = cpu.stop();
      // Let the server settle (an abandoned export stops at its next batch).
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const run: ExportRun = {
        name: scenario.name,
        query: scenario.query,
        as: scenario.as,
        rows: result.rows,
        megabytes: result.bytes / 1e6,
        seconds: result.seconds,
        rowsPerSecond: result.rows / result.seconds,
        rssStartMb,
        rssPeakMb: result.rssPeakMb,
        rssEndMb: server.rssMb(),
        rssTimeline: result.rssTimeline,
        cpusBusy: busy,
        cpusOthers: others,
        complete: result.complete,
      };
      runs.push(run);
      console.log(`${run.name}: ${run.rows.toLocaleString('en')} rows, ${run.megabytes.toFixed(1)} MB in ${run.seconds.toFixed(1)} s = ${Math.round(run.rowsPerSecond).toLocaleString('en')} rows/s; RSS ${run.rssStartMb.toFixed(0)} → peak ${run.rssPeakMb.toFixed(0)} → ${run.rssEndMb.toFixed(0)} MB; CPUs busy ${(busy * 100).toFixed(0)} % (others ${(others * 100).toFixed(0)} %)${run.complete ? '' : ' (stopped by the reader)'}; RSS by tenths ${run.rssTimeline.join(' ')}`);
    }
  } finally {
    await server.stop();
    await client.end();
  }
  const report = { at: new Date().toISOString(), database: name, users, node: process.version, cpus: os.cpus().length, loadAverage: os.loadavg(), runs };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'export-latest.json'), JSON.stringify(report, null, 2) + '\n');
  const lines = [
    `# Users export benchmark (${report.at.slice(0, 16).replace('T', ' ')} UTC, ${users.toLocaleString('en')} users, ${report.cpus} CPUs, Node ${report.node})`,
    '',
    '| scenario | rows | MB | s | rows/s | server RSS start / peak / end (MB) | RSS at each tenth of the run (MB) | CPUs busy (others) |',
    '|---|---:|---:|---:|---:|---|---|---|',
    ...runs.map((r) => `| ${r.name} | ${r.rows.toLocaleString('en')} | ${r.megabytes.toFixed(1)} | ${r.seconds.toFixed(1)} | ${Math.round(r.rowsPerSecond).toLocaleString('en')} | ${r.rssStartMb.toFixed(0)} / ${r.rssPeakMb.toFixed(0)} / ${r.rssEndMb.toFixed(0)} | ${r.rssTimeline.join(' ')} | ${(r.cpusBusy * 100).toFixed(0)} % (${(r.cpusOthers * 100).toFixed(0)} %) |`),
    '',
  ];
  fs.writeFileSync(path.join(RESULTS, 'export-latest.md'), lines.join('\n'));
}

await main();
