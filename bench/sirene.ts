// npm run bench:sirene [-- --rows 1000000] [--per-unit 4] [--member-share 1] [--force]
// The Sirene import at scale (issue 17): generates StockUniteLegale, StockEtablissement (1,000,000 rows by default)
// and a members' file in a temporary folder, REPLACES the database at DATABASE_URL (dropped and created again;
// its name must contain 'bench'), then runs `npm run orgs:import` on it as an operator would: a first import,
// a second one (which must change nothing) and a dry run. Measures the time and the peak resident memory (VmHWM)
// of each run, and the machine's load. Writes bench/results/sirene-latest.{json,md}.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { checkBenchDatabase } from './args.ts';
import { databaseName, withDatabase } from './names.ts';
import { generateSireneFiles } from './sirene-files.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const n = (value: number) => value.toLocaleString('en');

function option(args: readonly string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}: a positive number`);
  return value;
}

interface Measured {
  label: string;
  seconds: number;
  peakRssMb: number;
  code: number;
  summary: string;
  loadBefore: number[];
  loadAfter: number[];
}

/** Peak resident memory of a live process, from /proc (VmHWM: the high-water mark, which only grows). */
async function peakRssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) : 0;
}

async function runImport(label: string, url: string, files: string[]): Promise<Measured> {
  const loadBefore = loadavg();
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/orgs-import.ts', ...files], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    process.stderr.write(chunk);
  });
  let peak = 0;
  const poll = setInterval(() => {
    void peakRssKb(child.pid!).then((kb) => (peak = Math.max(peak, kb)));
  }, 100);
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  clearInterval(poll);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${label} failed (exit ${code}):\n${stderr}`);
  return { label, seconds, peakRssMb: peak / 1024, code, summary: stdout.trim(), loadBefore, loadAfter: loadavg() };
}

async function recreateDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const url = process.env.DATABASE_URL;
  const name = checkBenchDatabase(url, args.includes('--force'));
  const spec = { establishments: option(args, '--rows', 1_000_000), perUnit: option(args, '--per-unit', 4), memberShare: Math.min(1, option(args, '--member-share', 1)) };

  const dir = await mkdtemp(path.join(tmpdir(), 'bench-sirene-'));
  try {
    console.log(`Generating ${n(spec.establishments)} establishment rows (${spec.perUnit} per legal unit, ${spec.memberShare * 100} % members) in ${dir}…`);
    const generating = performance.now();
    const generated = await generateSireneFiles(dir, spec);
    console.log(
      `  ${n(generated.counts.units)} legal units, ${n(generated.counts.establishments)} establishments, ${n(generated.counts.members)} members: ` +
        `${(generated.counts.bytes / 1e6).toFixed(0)} MB in ${((performance.now() - generating) / 1000).toFixed(1)} s.`,
    );
    console.log(`Replacing the database '${name}'…`);
    await recreateDatabase(url!);

    const files = ['--units', generated.units, '--establishments', generated.establishments, '--members', generated.members];
    const runs = [
      await runImport('first import (empty database)', url!, files),
      await runImport('second import (same files: no change)', url!, files),
      await runImport('dry run', url!, [...files, '--dry-run']),
    ];

    const cpuModel = cpus()[0]?.model ?? 'unknown CPU';
    const table = [
      `| run | time | peak RSS | load before (1/5/15 min) | load after |`,
      `|---|---|---|---|---|`,
      ...runs.map((r) => `| ${r.label} | ${r.seconds.toFixed(1)} s | ${r.peakRssMb.toFixed(0)} MB | ${r.loadBefore.map((l) => l.toFixed(2)).join(' / ')} | ${r.loadAfter.map((l) => l.toFixed(2)).join(' / ')} |`),
    ].join('\n');
    const report = [
      `# Sirene import benchmark`,
      ``,
      `${new Date().toISOString()} · ${cpus().length} × ${cpuModel} · PostgreSQL at DATABASE_URL ('${name}')`,
      ``,
      `${n(generated.counts.establishments)} establishment rows, ${n(generated.counts.units)} legal units, ${n(generated.counts.members)} members' SIRENs (${(generated.counts.bytes / 1e6).toFixed(0)} MB of CSV).`,
      `Goal: at least 1,000,000 establishment rows in 3 minutes on 2 cores, peak RSS at most 300 MB.`,
      ``,
      table,
      ``,
      ...runs.flatMap((r) => [`## ${r.label}`, '', '```', r.summary, '```', '']),
    ].join('\n');
    console.log(`\n${table}`);
    const results = path.join(ROOT, 'bench/results');
    await mkdir(results, { recursive: true });
    await writeFile(path.join(results, 'sirene-latest.md'), report);
    await writeFile(path.join(results, 'sirene-latest.json'), `${JSON.stringify({ at: new Date().toISOString(), cpus: cpus().length, cpuModel, spec, counts: generated.counts, runs }, null, 2)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
