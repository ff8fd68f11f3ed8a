// Fresh databases for tests, on every backend the environment offers.
// PGlite always; PostgreSQL when TEST_DATABASE_URL is set (a new database per call, dropped afterwards).
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../../server/db/database.ts';
import { migrate } from '../../../server/db/migrate.ts';
import type { Database } from '../../../server/db/schema.ts';
import { seedDemoData } from '../../../server/seed/seed.ts';

export type BackendName = 'pglite' | 'postgres';

export interface Backend {
  name: BackendName;
}

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export const backends: readonly Backend[] = TEST_DATABASE_URL ? [{ name: 'pglite' }, { name: 'postgres' }] : [{ name: 'pglite' }];

if (!TEST_DATABASE_URL && process.env.CI === 'true') {
  // In CI a missing PostgreSQL fails the run rather than passing it tested on PGlite alone.
  throw new Error('TEST_DATABASE_URL is required in CI: the database and API tests run on PostgreSQL as well as on PGlite');
}
if (!TEST_DATABASE_URL) {
  console.warn(
    '[tests/server/db] TEST_DATABASE_URL is not set: these suites run on PGlite only and PostgreSQL is NOT tested in this run.',
  );
}

export interface TestDatabase {
  backend: BackendName;
  handle: DatabaseHandle;
  /** The connection string (PostgreSQL only), for server processes of their own. */
  url?: string;
  /** The database's name (PostgreSQL only). */
  name?: string;
  /** Another handle on the same database (PostgreSQL only: an in-memory PGlite has a single handle). */
  openAnother(): Promise<DatabaseHandle>;
  dispose(): Promise<void>;
}

/** An empty database (`template`: a copy of that PostgreSQL database instead; `name`: its name, else a new one). */
export async function createTestDatabase(backend: Backend, template?: string, name = `portail_t_${process.pid}_${randomBytes(4).toString('hex')}`): Promise<TestDatabase> {
  if (backend.name === 'pglite') {
    const handle = await openDatabase({});
    return {
      backend: 'pglite',
      handle,
      openAnother: () => Promise.reject(new Error('an in-memory PGlite has one handle only')),
      dispose: () => handle.close(),
    };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is needed for the postgres backend');
  await adminQuery(template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const handles: DatabaseHandle[] = [];
  const open = async () => {
    const handle = await openDatabase({ databaseUrl: url.toString(), poolMax: 4 });
    handles.push(handle);
    return handle;
  };
  const handle = await open();
  return {
    backend: 'postgres',
    handle,
    name,
    url: url.toString(),
    openAnother: open,
    async dispose() {
      await Promise.all(handles.map((h) => h.close()));
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * A migrated database holding the demo data, as a fresh start has it: copied from a template built once per
 * test process (PGlite: a dump of its data folder, reopened in under a second; PostgreSQL: CREATE DATABASE …
 * TEMPLATE), instead of migrating and seeding each time.
 */
export async function createSeededTestDatabase(backend: Backend): Promise<TestDatabase> {
  if (backend.name === 'pglite') {
    const dump = await pgliteTemplate();
    const handle = await openDatabase({ loadDataDir: dump });
    return {
      backend: 'pglite',
      handle,
      openAnother: () => Promise.reject(new Error('an in-memory PGlite has one handle only')),
      dispose: () => handle.close(),
    };
  }
  return createTestDatabase(backend, await postgresTemplate());
}

const templates: { pglite?: Promise<Blob>; postgres?: Promise<string> } = {};

/** A template being built, forgotten if the build fails so that the next test file builds it again. */
function retryable<T>(kind: keyof typeof templates, build: () => Promise<T>): Promise<T> {
  const building = build();
  building.catch(() => {
    if (templates[kind] === (building as Promise<unknown>)) delete templates[kind];
  });
  return building;
}

function pgliteTemplate(): Promise<Blob> {
  templates.pglite ??= retryable('pglite', async () => {
    const handle = await openDatabase({});
    try {
      await migrate(handle);
      await seedDemoData(handle);
      return await handle.dumpDataDir!();
    } finally {
      await handle.close();
    }
  });
  return templates.pglite;
}

/** The name of this process's seeded template database; those of processes gone are dropped first. */
function postgresTemplate(): Promise<string> {
  templates.postgres ??= retryable('postgres', async () => {
    await dropTemplatesOfGoneProcesses();
    const database = await createTestDatabase({ name: 'postgres' }, undefined, `portail_tpl_${process.pid}_${randomBytes(4).toString('hex')}`);
    try {
      await migrate(database.handle);
      await seedDemoData(database.handle);
    } finally {
      await database.handle.close();
    }
    return database.name!;
  });
  return templates.postgres;
}

async function dropTemplatesOfGoneProcesses(): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>("select datname from pg_database where datname like 'portail\\_tpl\\_%'");
    for (const { datname } of rows) {
      const pid = Number(datname.split('_')[2]);
      if (isAlive(pid)) continue;
      await client.query(`drop database if exists ${datname} with (force)`);
    }
  } finally {
    await client.end();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Seconds elapsed since `start` (performance.now()), to one decimal. */
export function secondsSince(start: number): string {
  return ((performance.now() - start) / 1000).toFixed(1);
}

/** Every row a seed writes, in a stable order (password hashes reduced to their presence: salts are random). */
export async function snapshot(db: Kysely<Database>) {
  return {
    organizations: await db.selectFrom('organizations').selectAll().orderBy('code').execute(),
    users: await db.selectFrom('users').selectAll().orderBy('id').execute(),
    permissions: await db.selectFrom('permissions').selectAll().orderBy('code').execute(),
    rolePermissions: await db.selectFrom('role_permissions').selectAll().orderBy('role_id').orderBy('permission_code').execute(),
    userPermissions: await db.selectFrom('user_permissions').selectAll().orderBy('user_id').orderBy('permission_code').execute(),
    roles: await db.selectFrom('roles').selectAll().orderBy('id').execute(),
    roleAssignments: await db.selectFrom('role_assignments').selectAll().orderBy('id').execute(),
    invitations: await db.selectFrom('invitations').selectAll().orderBy('id').execute(),
    identities: await db
      .selectFrom('identity_accounts')
      .select(['subject', 'email', 'display_name', 'enabled', 'created_at'])
      .select((eb) => eb('password_hash', 'is not', null).as('has_password'))
      .orderBy('subject')
      .execute(),
  };
}
