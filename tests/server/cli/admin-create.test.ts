// npm run admin:create -- --email … (server/cli/admin-create.ts): the first back-office administrator of an
// empty database, made as the wizard makes users (identity directory, invitation e-mail, audit entry).
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCreate } from '../../../server/cli/admin-create.ts';
import type { CommandIo } from '../../../server/cli/command.ts';
import { openDatabase, type DatabaseHandle } from '../../../server/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../db/test-databases.ts';
import { describeOnPostgres } from '../../support/on-postgres.ts';
import { startGraphStub } from '../support/graph-stub.ts';

const ALL_PERMISSIONS = ['B2C_USER_DISABLE', 'ORG_LIST', 'USER_CREATE', 'USER_DELETE', 'USER_LIST'];
/** Where the local provider's keys go (the account set-up links are signed with them). */
const KEYS_DIR = path.join(tmpdir(), `portail-cli-keys-${process.pid}`);
afterAll(async () => {
  await rm(KEYS_DIR, { recursive: true, force: true });
});

function io(env: Record<string, string>): CommandIo & { output: string[]; errors: string[] } {
  const output: string[] = [];
  const errors: string[] = [];
  return { env, output, errors, out: (line) => void output.push(line), err: (line) => void errors.push(line) };
}

/** The command's behaviour on a database reached through `environment`, read back through `database`. */
function behavesAsACommand(environment: () => Record<string, string>, database: () => DatabaseHandle) {
  const userOf = async (email: string) => {
    const db = database().db;
    return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  };

  it('creates a BACKOFFICE user holding every permission, their sign-in account, the invitation e-mail and an audit entry naming the command', async () => {
    const run = io(environment());
    expect(await adminCreate(run, ['--email', 'premiere.admin@opco.fr', '--first-name', 'Hélène', '--last-name', 'Durand'])).toBe(0);
    expect(run.errors).toEqual([]);
    const db = database().db;
    const user = (await userOf('premiere.admin@opco.fr'))!;
    expect(user).toMatchObject({ user_type: 'BACKOFFICE', is_active: true, first_name: 'Hélène', last_name: 'Durand' });
    const permissions = await db.selectFrom('user_permissions').select('permission_code').where('user_id', '=', user.id).orderBy('permission_code').execute();
    expect(permissions.map((p) => p.permission_code)).toEqual(ALL_PERMISSIONS);
    expect(await db.selectFrom('role_assignments').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    const identity = await db.selectFrom('identity_accounts').selectAll().where('subject', '=', user.auth_id!).executeTakeFirstOrThrow();
    expect(identity).toMatchObject({ email: 'premiere.admin@opco.fr', display_name: 'Hélène Durand', enabled: true, password_hash: null });
    const mail = await db.selectFrom('outbox').selectAll().where('recipient', '=', 'premiere.admin@opco.fr').executeTakeFirstOrThrow();
    expect(mail).toMatchObject({ kind: 'account.invitation', status: 'PENDING' });
    expect(mail.body).toContain('/oidc/account/setup?token=');
    const audit = await db.selectFrom('audit_log').selectAll().where('entity_id', '=', user.id).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ action: 'user.create', entity_type: 'user', actor_id: null });
    expect(audit.actor_email).toMatch(/^npm run admin:create \(.+@.+\)$/);
    expect(audit.changes).toMatchObject({ userType: { before: null, after: 'BACKOFFICE' }, permissions: { before: null, after: ALL_PERMISSIONS } });
    const printed = run.output.join('\n');
    expect(printed).toContain('premiere.admin@opco.fr');
    expect(printed).toContain(`outbox n° ${mail.id}`);
  });

  it('refuses a second one while a back-office administrator exists, says how to force it, and writes nothing', async () => {
    const run = io(environment());
    expect(await adminCreate(run, ['--email', 'deuxieme.admin@opco.fr'])).toBe(1);
    expect(run.errors.join('\n')).toContain('Un administrateur du back-office existe déjà (premiere.admin@opco.fr)');
    expect(run.errors.join('\n')).toContain('--force');
    expect(await userOf('deuxieme.admin@opco.fr')).toBeUndefined();
  });

  it('creates another one with --force, named by default', async () => {
    const run = io(environment());
    expect(await adminCreate(run, ['--email', 'deuxieme.admin@opco.fr', '--force'])).toBe(0);
    expect(await userOf('deuxieme.admin@opco.fr')).toMatchObject({ user_type: 'BACKOFFICE', first_name: 'Administrateur', last_name: 'Portail' });
  });

  it('refuses, even with --force, an e-mail a user already has, whatever its case', async () => {
    const run = io(environment());
    expect(await adminCreate(run, ['--email', 'Premiere.Admin@OPCO.fr', '--force'])).toBe(1);
    expect(run.errors.join('\n')).toContain('Cette adresse email est déjà utilisée par un autre utilisateur.');
  });

  it('counts only active administrators: when every one is deactivated, a new one needs no --force', async () => {
    const db = database().db;
    await db.updateTable('users').set({ is_active: false }).where('user_type', '=', 'BACKOFFICE').execute();
    const run = io(environment());
    expect(await adminCreate(run, ['--email', 'relance.admin@opco.fr'])).toBe(0);
  });
}

describe('admin:create on a PGlite data folder', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portail-cli-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates the first administrator of an empty database (migrated, given its reference data), then refuses a second', async () => {
    expect(await adminCreate(io({ DATA_DIR: dataDir }), ['--email', 'premiere.admin@opco.fr'])).toBe(0);
    // A PGlite folder is one handle's at a time: read once the command has closed it.
    const handle = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
    try {
      expect(await handle.db.selectFrom('users').select(['email', 'user_type']).execute()).toEqual([{ email: 'premiere.admin@opco.fr', user_type: 'BACKOFFICE' }]);
    } finally {
      await handle.close();
    }
    const again = io({ DATA_DIR: dataDir });
    expect(await adminCreate(again, ['--email', 'autre.admin@opco.fr'])).toBe(1);
    expect(again.errors.join('\n')).toContain('Un administrateur du back-office existe déjà');
  });
});

describe('admin:create arguments', () => {
  it('refuses an invalid e-mail, naming --email, before opening any database', async () => {
    const run = io({ DATABASE_URL: 'postgres://nobody:nothing@127.0.0.1:1/none' });
    expect(await adminCreate(run, ['--email', 'pas-une-adresse'])).toBe(1);
    expect(run.errors.join('\n')).toContain('--email : Adresse email invalide');
  });

  it('refuses invalid names, naming each option', async () => {
    const run = io({ DATABASE_URL: 'postgres://nobody:nothing@127.0.0.1:1/none' });
    expect(await adminCreate(run, ['--email', 'a@opco.fr', '--first-name', 'J', '--last-name', 'D3'])).toBe(1);
    expect(run.errors.join('\n')).toMatch(/--first-name : Minimum 2 caractères requis[\s\S]*--last-name : Seules les lettres/);
  });

  it('says how to use it without --email, or with an option it does not know', async () => {
    for (const args of [[], ['--email', 'a@opco.fr', '--role', 'x']]) {
      const run = io({});
      expect(await adminCreate(run, args)).toBe(1);
      expect(run.errors.join('\n')).toContain('Usage : npm run admin:create -- --email <adresse>');
    }
  });

  it('prints its usage on --help and answers 0, touching no database', async () => {
    const run = io({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(await adminCreate(run, ['--help'])).toBe(0);
    expect(run.output).toEqual(['Usage : npm run admin:create -- --email <adresse> [--first-name <prénom>] [--last-name <nom>] [--force]']);
    expect(run.errors).toEqual([]);
  });

  it('runs as npm runs it, answering 1 on a refusal', () => {
    const result = spawnSync(process.execPath, ['server/cli/admin-create.ts', '--email', 'pas-une-adresse'], { encoding: 'utf8', timeout: 60_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('--email : Adresse email invalide');
  });
});

describeOnPostgres('admin:create on PostgreSQL (DATABASE_URL)', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase({ name: 'postgres' });
  });
  afterAll(async () => {
    await testDb?.dispose();
  });
  behavesAsACommand(
    () => ({ DATABASE_URL: testDb.url!, DATA_DIR: KEYS_DIR }),
    () => testDb.handle,
  );
});

describeOnPostgres('admin:create with Microsoft Graph as identity directory', () => {
  let testDb: TestDatabase;
  let graph: Awaited<ReturnType<typeof startGraphStub>>;
  beforeAll(async () => {
    testDb = await createTestDatabase({ name: 'postgres' });
    graph = await startGraphStub();
  });
  afterAll(async () => {
    await testDb?.dispose();
    await graph?.close();
  });

  it('creates the sign-in account through Graph, as the wizard does', async () => {
    graph.answer((call) => (call.method === 'POST' ? { status: 201, body: { id: 'graph-object-id' } } : { status: 204 }));
    const run = io({ DATABASE_URL: testDb.url!, DATA_DIR: KEYS_DIR });
    expect(await adminCreate(run, ['--email', 'admin.graph@opco.fr'], { directory: graph.directory() })).toBe(0);
    expect(graph.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /v1.0/users']);
    expect(JSON.parse(graph.calls[0]!.body)).toMatchObject({ displayName: 'Administrateur Portail', identities: [{ issuerAssignedId: 'admin.graph@opco.fr' }] });
    const user = await testDb.handle.db.selectFrom('users').selectAll().where('email', '=', 'admin.graph@opco.fr').executeTakeFirstOrThrow();
    expect(user.auth_id).toBe('graph-object-id');
  });

  it('deletes the account it made in Graph when the database refuses the rest', async () => {
    graph.calls.length = 0;
    graph.answer((call) => (call.method === 'POST' ? { status: 201, body: { id: 'graph-object-2' } } : { status: 204 }));
    // The invitation e-mail cannot be written: the unit of work fails after the account was made.
    await testDb.handle.exec("alter table outbox add constraint no_more_mail check (kind = 'none') not valid");
    try {
      const run = io({ DATABASE_URL: testDb.url!, DATA_DIR: KEYS_DIR });
      expect(await adminCreate(run, ['--email', 'admin.graph2@opco.fr', '--force'], { directory: graph.directory() })).toBe(1);
      expect(graph.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /v1.0/users', 'DELETE /v1.0/users/graph-object-2']);
      expect(await testDb.handle.db.selectFrom('users').select('id').where('email', '=', 'admin.graph2@opco.fr').execute()).toEqual([]);
    } finally {
      await testDb.handle.exec('alter table outbox drop constraint no_more_mail');
    }
  });
});
