// The server as production runs it (its memory settings included, server/runtime.ts), in a child process whose
// signals, exit and log the test follows as they happen (bench/server-process.ts starts it the same way, but writes
// the log to a file and hides the exit).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from '../../../server/runtime.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** performance.now() when it exited. */
  at: number;
}

export interface WatchedServer {
  origin: string;
  pid: number;
  /** Everything it wrote so far (standard output and error). */
  log(): string;
  /** Its JSON log lines so far, parsed (other lines left out). */
  entries(): Record<string, unknown>[];
  /** Resolves once a log entry satisfies `test`; rejects after `timeoutMs` or if the process exits first. */
  waitForEntries(test: (entries: Record<string, unknown>[]) => boolean, timeoutMs?: number): Promise<void>;
  signal(name: NodeJS.Signals): void;
  exited: Promise<Exit>;
  /** SIGKILL if still running (the test's clean-up). */
  kill(): Promise<void>;
}

export async function startWatchedServer(env: Record<string, string>, port: number): Promise<WatchedServer> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'server/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...SERVER_ENVIRONMENT, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  let done: Exit | null = null;
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      done = { code, signal, at: performance.now() };
      for (const listener of listeners) listener();
      resolve(done);
    }),
  );
  const entries = () =>
    output.split('\n').flatMap((line) => {
      if (!line.startsWith('{')) return [];
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  const origin = `http://127.0.0.1:${port}`;
  const server: WatchedServer = {
    origin,
    pid: child.pid!,
    log: () => output,
    entries,
    waitForEntries: (test, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (test(entries())) finish(null);
          else if (done) finish(new Error(`the server exited (${done.code ?? done.signal}) first:\n${output.slice(-3000)}`));
        };
        const timer = setTimeout(() => finish(new Error(`not in the log after ${timeoutMs} ms:\n${output.slice(-3000)}`)), timeoutMs);
        const finish = (error: Error | null) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve();
        };
        listeners.add(check);
        check();
      }),
    signal: (name) => child.kill(name),
    exited,
    async kill() {
      if (!done) child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (done) throw new Error(`the server stopped at start:\n${output}`);
    try {
      if ((await fetch(`${origin}/readyz`)).ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(`the server did not get ready in 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
