// The server under test: `node --import tsx server/main.ts` in a child process (as `npm start` runs it),
// its log in a file, its resident memory read from /proc while the load runs.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

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

export async function startServer(options: { env: Record<string, string>; port: number; logFile: string; root: string }): Promise<ServerProcess> {
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = fs.openSync(options.logFile, 'w');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: options.root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['ignore', log, log],
  });
  const origin = `http://127.0.0.1:${options.port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let dead = false;
  void exited.then(() => (dead = true));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (dead) throw new Error(`the server stopped at start; see ${options.logFile}`);
    try {
      const answer = await fetch(`${origin}/readyz`);
      if (answer.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not get ready in 60 s; see ${options.logFile}`);
    }
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
