// The server under test: `node server/main.ts` in a child process, started as production starts it (its Node.js
// flags and environment, server/runtime.ts), its log in a file, its resident memory read from /proc while the load runs.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from '../server/runtime.ts';

export interface ServerProcess {
  pid: number;
  origin: string;
  /** Resident set size in MB, now. */
  rssMb(): number;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function readRssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

/** Whether `${origin}/readyz` answers 200; an https origin is the local server's own certificate (`ca`, else not checked). */
function isReady(origin: string, ca?: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    const url = `${origin}/readyz`;
    const done = (answer: http.IncomingMessage) => (answer.resume(), resolve(answer.statusCode === 200));
    const request = url.startsWith('https:') ? https.get(url, ca ? { ca } : { rejectUnauthorized: false }, done) : http.get(url, done);
    request.on('error', () => resolve(false));
    request.setTimeout(2000, () => request.destroy());
  });
}

export interface StartOptions {
  env: Record<string, string>;
  port: number;
  logFile: string;
  root: string;
  /** Where it answers: http://127.0.0.1:{port} unless the env makes it serve https (then https://localhost:{port}). */
  origin?: string;
  /** The certificate an https origin is checked against. */
  ca?: Buffer;
  readyTimeoutMs?: number;
}

/**
 * The command and environment of the server's process: production's flags and memory settings, then `env`. With
 * BENCH_CPU_PROFILE_DIR set, the server also writes a V8 CPU profile of its run there (bench/README.md).
 */
export function serverCommand(env: Record<string, string>): { args: string[]; env: Record<string, string> } {
  const profile = process.env.BENCH_CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`] : [];
  return { args: [...SERVER_NODE_FLAGS, ...profile, 'server/main.ts'], env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...SERVER_ENVIRONMENT, ...env } };
}

export async function startServer(options: StartOptions): Promise<ServerProcess> {
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = fs.openSync(options.logFile, 'w');
  const command = serverCommand(options.env);
  const child: ChildProcess = spawn(process.execPath, command.args, {
    cwd: options.root,
    env: command.env,
    stdio: ['ignore', log, log],
  });
  const origin = options.origin ?? `http://127.0.0.1:${options.port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let dead = false;
  void exited.then(() => (dead = true));
  const timeoutMs = options.readyTimeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  // A start that fails leaves no process and no open file behind.
  const fail = async (message: string) => {
    if (!dead) child.kill('SIGKILL');
    await exited;
    fs.closeSync(log);
    throw new Error(message);
  };
  while (!(await isReady(origin, options.ca))) {
    if (dead) await fail(`the server stopped at start; see ${options.logFile}:\n${fs.readFileSync(options.logFile, 'utf8').slice(-2000)}`);
    if (Date.now() > deadline) await fail(`the server did not get ready in ${timeoutMs / 1000} s; see ${options.logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    pid: child.pid!,
    origin,
    rssMb: () => readRssMb(child.pid!),
    async stop() {
      if (!dead) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      fs.closeSync(log);
    },
  };
}
