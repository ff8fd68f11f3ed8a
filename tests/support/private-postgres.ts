// A PostgreSQL cluster of a test's own: initdb in a temporary folder, a free port on 127.0.0.1, trust
// authentication, fsync off. A test may stop and start it without disturbing the shared server that other
// test files use at the same time (TEST_DATABASE_URL). initdb and postgres refuse to run as root: as root
// (CI), they run as the `postgres` account through runuser.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { freePort } from '../../bench/server-process.ts';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface PostgresBinaries {
  /** Folder holding initdb, pg_ctl and postgres. */
  binDir: string;
  /** The account they run as (through runuser) when this process is root; null: as this process. */
  runAs: { name: string; uid: number; gid: number } | null;
}

export type BinariesLookup = { found: true; binaries: PostgresBinaries } | { found: false; reason: string };

const NEEDED = ['initdb', 'pg_ctl', 'postgres'];

/** PG_BIN_DIR, else the newest /usr/lib/postgresql/<version>/bin (Debian's layout; CI's PostgreSQL 15 is there). */
export function findPostgresBinaries(env: NodeJS.ProcessEnv = process.env): BinariesLookup {
  const root = '/usr/lib/postgresql';
  const candidates = env.PG_BIN_DIR
    ? [env.PG_BIN_DIR]
    : fs.existsSync(root)
      ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)).map((version) => path.join(root, version, 'bin'))
      : [];
  const binDir = candidates.find((dir) => NEEDED.every((name) => fs.existsSync(path.join(dir, name))));
  if (!binDir) return { found: false, reason: `no PostgreSQL server binaries (${NEEDED.join(', ')}) in ${env.PG_BIN_DIR ?? `${root}/*/bin`}` };
  if (process.getuid?.() !== 0) return { found: true, binaries: { binDir, runAs: null } };
  const account = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === 'postgres');
  if (!account) return { found: false, reason: 'running as root, and there is no postgres account to run initdb and postgres as' };
  if (spawnSync('runuser', ['--help'], { stdio: 'ignore' }).error) return { found: false, reason: 'running as root, and runuser is missing' };
  return { found: true, binaries: { binDir, runAs: { name: 'postgres', uid: Number(account[2]), gid: Number(account[3]) } } };
}

const inCi = () => Boolean(process.env.CI) && process.env.CI !== 'false';

/**
 * The binaries, or null with the reason printed: the caller then skips its tests. In CI a missing binary
 * fails instead (throws), so that these tests cannot silently stop running there.
 */
export function requirePostgresBinaries(label: string): PostgresBinaries | null {
  const lookup = findPostgresBinaries();
  if (lookup.found) return lookup.binaries;
  if (inCi()) throw new Error(`[${label}] ${lookup.reason}: these tests must run in CI (CI=${process.env.CI}).`);
  console.warn(`[${label}] ${lookup.reason}: these tests are NOT run.`);
  return null;
}

export interface PrivatePostgres {
  readonly port: number;
  /** The test database, as the superuser postgres (trust authentication). */
  readonly url: string;
  /** The temporary folder: the cluster (data/) and its log (postgres.log). */
  readonly folder: string;
  readonly logFile: string;
  /** Starts the stopped cluster; resolves once it accepts connections. */
  start(): Promise<void>;
  /** pg_ctl stop: `fast` ends the sessions and shuts down cleanly, `immediate` kills the server outright. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Processes still running from this cluster's folder (none once disposed). */
  processes(): number[];
  /** Stops it if it runs and removes its folder, also after a failed test; safe to call twice. */
  dispose(): Promise<void>;
}

export { freePort };

/** The command line, as the postgres account when this process is root. */
function commandLine(binaries: PostgresBinaries, tool: string, args: string[]): [string, string[]] {
  const bin = path.join(binaries.binDir, tool);
  return binaries.runAs ? ['runuser', ['-u', binaries.runAs.name, '--', bin, ...args]] : [bin, args];
}

/** Runs a tool to its exit (not to the close of its output: pg_ctl leaves the server running behind it). */
function run(binaries: PostgresBinaries, tool: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  const [command, argv] = commandLine(binaries, tool, args);
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

async function acceptsConnections(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Processes of this cluster: those whose command line names its folder (pg_ctl, the postmaster) and their
 * descendants (the server's own processes rename themselves 'postgres: checkpointer' and so on).
 */
function processesUsing(folder: string): number[] {
  const all: { pid: number; parent: number; names: boolean }[] = [];
  if (!fs.existsSync('/proc')) return [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, the fields after the last ')' do not.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      all.push({ pid: Number(entry), parent, names: fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(folder) });
    } catch {
      // gone meanwhile
    }
  }
  const found = new Set(all.filter((p) => p.names).map((p) => p.pid));
  for (let grown = true; grown; ) {
    grown = false;
    for (const p of all) {
      if (!found.has(p.pid) && found.has(p.parent)) {
        found.add(p.pid);
        grown = true;
      }
    }
  }
  return [...found];
}

/** A new cluster with an empty database `portail`, started. */
export async function startPrivatePostgres(binaries: PostgresBinaries): Promise<PrivatePostgres> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-pg-'));
  const dataDir = path.join(folder, 'data');
  const logFile = path.join(folder, 'postgres.log');
  if (binaries.runAs) fs.chownSync(folder, binaries.runAs.uid, binaries.runAs.gid);
  const port = await freePort();
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const logTail = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '(no log)');
  let disposed = false;

  const pgCtl = async (args: string[]) => {
    const { code, output } = await run(binaries, 'pg_ctl', ['-D', dataDir, ...args], folder);
    if (code !== 0) throw new Error(`pg_ctl ${args.join(' ')} failed (${code}): ${output}\n${logTail()}`);
  };
  const isRunning = async () => (await run(binaries, 'pg_ctl', ['-D', dataDir, 'status'], folder)).code === 0;

  const start = async () => {
    await pgCtl(['-l', logFile, '-w', '-t', '60', 'start']);
    // pg_ctl -w waits for the server's ready state; a first connection confirms it from the outside.
    const deadline = Date.now() + 30_000;
    while (!(await acceptsConnections(adminUrl))) {
      if (Date.now() > deadline) throw new Error(`the private PostgreSQL on port ${port} does not accept connections:\n${logTail()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  // Synchronous, for a process that ends without running the test's clean-up.
  const killOnExit = () => {
    const [command, argv] = commandLine(binaries, 'pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']);
    spawnSync(command, argv, { cwd: folder, stdio: 'ignore' });
    fs.rmSync(folder, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);

  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    process.removeListener('exit', killOnExit);
    try {
      if (await isRunning()) await pgCtl(['-m', 'immediate', '-w', 'stop']);
    } finally {
      // Whatever pg_ctl said: nothing of this cluster survives it.
      for (const pid of processesUsing(folder)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      fs.rmSync(folder, { recursive: true, force: true });
    }
  };

  try {
    const init = await run(
      binaries,
      'initdb',
      ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync'],
      folder,
    );
    if (init.code !== 0) throw new Error(`initdb failed (${init.code}): ${init.output}`);
    // No Unix socket: the shared /var/run/postgresql may be missing or not writable; TCP on 127.0.0.1 only.
    fs.appendFileSync(
      path.join(dataDir, 'postgresql.conf'),
      [
        '',
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        "unix_socket_directories = ''",
        'fsync = off',
        'full_page_writes = off',
        'shared_buffers = 32MB',
        'max_connections = 60',
        '',
      ].join('\n'),
    );
    await start();
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query('create database portail');
    } finally {
      await client.end();
    }
  } catch (error) {
    await dispose();
    throw error;
  }

  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/portail`,
    folder,
    logFile,
    start,
    stop: (mode = 'fast') => pgCtl(['-m', mode, '-w', '-t', '60', 'stop']),
    processes: () => processesUsing(folder),
    dispose,
  };
}
