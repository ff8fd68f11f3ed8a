import { sql } from 'kysely';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { importJWK, SignJWT, generateKeyPair, type JWTPayload } from 'jose';
import { buildApp } from '../../../server/app.ts';
import { readConfig } from '../../../server/config.ts';
import { DEMO_ACCOUNTS } from '../../../server/seed/seed.ts';
import { loadSigningKeys, type SigningKeys } from '../../../server/dev-idp/signing-keys.ts';
import { verifierFor } from '../../../server/identity/token-verifier.ts';
import type { IdentityDirectory } from '../../../server/identity/directory.ts';
import type { JobClock } from '../../../server/jobs/runner.ts';
import type { DatabaseHandle } from '../../../server/db/database.ts';
import { createSeededTestDatabase, type Backend, type TestDatabase } from '../db/test-databases.ts';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  keys: SigningKeys;
  issuer: string;
  audience: string;
  /** A token as the local provider signs them, for the account with this email. */
  tokenFor(email: string, overrides?: JWTPayload): Promise<string>;
  /** A token signed with the provider's key, with exactly these claims. */
  sign(claims: JWTPayload, header?: { alg?: string; kid?: string }): Promise<string>;
  close(): Promise<void>;
  /** Closes the server and keeps its database (to start another server on it: `database` of TestAppOptions). */
  stopServer(): Promise<void>;
}

export interface TestAppOptions {
  /** Another identity directory than the local provider's table (e.g. one that fails). */
  directory?: IdentityDirectory;
  /** The handle the server gets, e.g. one counting statements (./statement-counter.ts); seeding uses the plain one. */
  wrapDatabase?: (handle: DatabaseHandle) => DatabaseHandle;
  /** More settings for readConfig, e.g. SMTP_URL. */
  env?: Record<string, string>;
  /** Receives the server's log lines (JSON), at the LOG_LEVEL of `env` (silent by default). */
  logStream?: { write(line: string): void };
  /** Runs the scheduled jobs, on this clock (tests/server/support/fake-clock.ts); the services decide on its time too. */
  jobClock?: JobClock;
  /** Runs the worker of the actions on many users by itself (off: the test calls app.bulkActions.drain()). */
  runBulkActions?: boolean;
  /** The bulk worker's persons per batch and batches side by side (default: the server's). */
  bulkBatches?: { batchSize?: number; concurrency?: number };
  /** Builds the app on this database rather than a new one (a restart: the same data, a new server). */
  database?: TestDatabase;
  /** With a jobClock: false to give the clock to the services without running the jobs (default true). */
  runJobs?: boolean;
}

/** The real server, in-process, on a fresh migrated and seeded database of the given backend. */
export async function startTestApp(backend: Backend, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-api-'));
  const config = readConfig({ DATA_DIR: dataDir, PORT: '8443', LOG_LEVEL: 'silent', WEB_ROOT: path.join(dataDir, 'no-web'), ...options.env });
  const database = options.database ?? (await createSeededTestDatabase(backend));
  const keys = await loadSigningKeys(dataDir);
  const verifyToken = await verifierFor(config.auth, keys.publicJwks);
  const app = await buildApp({
    config,
    database: options.wrapDatabase ? options.wrapDatabase(database.handle) : database.handle,
    verifyToken,
    signingKeys: keys,
    tls: null,
    demoAccounts: DEMO_ACCOUNTS,
    ...(options.directory ? { directory: options.directory } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.jobClock ? { runJobs: options.runJobs ?? true, jobClock: options.jobClock } : {}),
    runBulkActions: options.runBulkActions ?? false,
    ...(options.bulkBatches ? { bulkBatches: options.bulkBatches } : {}),
  });
  await app.ready();
  const issuer = `${config.publicOrigin}/oidc`;
  const audience = config.auth.clientId;
  const privateJwk = keys.privateJwks.keys[0]!;
  const privateKey = await importJWK(privateJwk, 'RS256');

  const sign: TestApp['sign'] = (claims, header = {}) =>
    new SignJWT(claims).setProtectedHeader({ alg: header.alg ?? 'RS256', kid: header.kid ?? privateJwk.kid }).sign(privateKey);

  return {
    app,
    database,
    keys,
    issuer,
    audience,
    sign,
    async tokenFor(email, overrides = {}) {
      // The local provider's account of this address; with another directory (Graph), the portal user's subject.
      const identity =
        (await database.handle.db.selectFrom('identity_accounts').select(['subject', 'display_name']).where('email', '=', email).executeTakeFirst()) ??
        (await database.handle.db
          .selectFrom('users')
          .select(['auth_id as subject', sql<string>`first_name || ' ' || last_name`.as('display_name')])
          .where('email', '=', email)
          .where('auth_id', 'is not', null)
          .$narrowType<{ subject: string }>()
          .executeTakeFirstOrThrow());
      const now = Math.floor(Date.now() / 1000);
      return sign({ iss: issuer, aud: audience, sub: identity.subject, email, name: identity.display_name, iat: now, auth_time: now, exp: now + 3600, ...overrides });
    },
    async close() {
      await app.close();
      await database.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    async stopServer() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A key the provider never had: tokens it signs must be refused. */
export async function foreignKey() {
  const { privateKey } = await generateKeyPair('RS256');
  return privateKey;
}
