// The SQL statements the server runs for one request, captured from pg's client in this process: the real
// server code (buildApp) answers the request in-process while every query it sends is recorded. The
// database floor replays exactly these statements.
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app.ts';
import { readConfig } from '../server/config.ts';
import { openDatabase, type DatabaseHandle } from '../server/db/database.ts';
import { loadSigningKeys } from '../server/dev-idp/signing-keys.ts';
import { verifierFor } from '../server/identity/token-verifier.ts';

export interface Statement {
  text: string;
  values: unknown[];
  /** Set when the server prepares the statement (server/db/database.ts): the floor prepares it too. */
  name?: string;
  /** The ids its rows returned (`returning id`): the floor gives the later statements its own (floor.ts). */
  returnedIds?: string[];
}

export interface CapturedRequest {
  status: number;
  body: string;
  statements: Statement[];
}

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  token: string;
  body?: string;
}

export interface Capturer {
  capture(request: RequestSpec): Promise<CapturedRequest>;
  close(): Promise<void>;
}

type QueryFunction = (this: pg.Client, ...args: unknown[]) => unknown;

/** An in-process server with the benchmark's environment, whose SQL is recorded request by request. */
export async function startCapturer(env: Record<string, string>): Promise<Capturer> {
  const config = readConfig({ ...env, LOG_LEVEL: 'silent' });
  const database: DatabaseHandle = await openDatabase({ databaseUrl: config.databaseUrl!, poolMax: 2 });
  const keys = await loadSigningKeys(config.dataDir);
  const app: FastifyInstance = await buildApp({ config: { ...config, webRoot: path.join(config.dataDir, 'no-web') }, database, verifyToken: await verifierFor(config.auth, keys.publicJwks), signingKeys: keys, tls: null });
  await app.ready();
  const prototype = pg.Client.prototype as unknown as { query: QueryFunction };
  const original = prototype.query;
  let recording: Statement[] | null = null;
  prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config, values] = args;
    let statement: Statement | null = null;
    if (recording && typeof config === 'string') statement = { text: config, values: Array.isArray(values) ? [...values] : [] };
    else if (recording && config && typeof config === 'object' && 'text' in config) {
      const { text, values: named, name } = config as { text: string; values?: unknown[]; name?: string };
      statement = { text, values: [...(named ?? [])], ...(name ? { name } : {}) };
    }
    if (statement) recording!.push(statement);
    const answer = original.apply(this, args);
    if (statement && /\breturning\b/i.test(statement.text) && answer && typeof (answer as Promise<unknown>).then === 'function') {
      const recorded = statement;
      (answer as Promise<{ rows?: { id?: unknown }[] }>).then(
        (result) => {
          const ids = (result?.rows ?? []).map((row) => row.id).filter((id) => id !== undefined && id !== null);
          if (ids.length > 0) recorded.returnedIds = ids.map(String);
        },
        () => undefined,
      );
    }
    return answer;
  };
  return {
    async capture(request) {
      recording = [];
      try {
        const answer = await app.inject({
          method: request.method,
          url: request.path,
          headers: { authorization: `Bearer ${request.token}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
          ...(request.body ? { payload: request.body } : {}),
        });
        return { status: answer.statusCode, body: answer.body, statements: recording };
      } finally {
        recording = null;
      }
    },
    async close() {
      prototype.query = original;
      await app.close();
      await database.close();
    },
  };
}
