import { createHash } from 'node:crypto';
import { appendFile, copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MIGRATIONS_DIR, migrate, MigrationChangedError, type MigrateResult } from '../../../server/db/migrate.ts';
import type { DatabaseHandle } from '../../../server/db/database.ts';
import type { OutboxKind } from '../../../server/db/schema.ts';
import { AUDIT_ACTIONS } from '../../../server/features/audit/journal.input.ts';
import { backends, createTestDatabase, type TestDatabase } from './test-databases.ts';

const TABLES = [
  'audit_backfills',
  'audit_counts',
  'audit_day_counts',
  'audit_hour_counts',
  'audit_log',
  'audit_log_organizations',
  'bulk_action_targets',
  'bulk_actions',
  'dormancy_siren_notices',
  'email_change_tokens',
  'erased_persons',
  'identity_accounts',
  'invitation_counts',
  'invitation_digests',
  'invitations',
  'list_versions',
  'oidc_payloads',
  'organization_counts',
  'organization_gram_counts',
  'organization_search',
  'organizations',
  'outbox',
  'permissions',
  'rate_limit_hits',
  'role_assignments',
  'role_permissions',
  'roles',
  'scheduled_jobs',
  'schema_migrations',
  'user_counts',
  'user_dormancy_day_counts',
  'user_name_ranges',
  'user_permissions',
  'user_search',
  'user_search_backfill',
  'user_search_gram_counts',
  'user_search_gram_role_counts',
  'user_search_overlaps_backfill',
  'user_search_roles_backfill',
  'user_search_word_counts',
  'user_search_word_role_counts',
  'user_search_words',
  'user_search_words_backfill',
  'users',
];

const migrationFiles = async () => (await readdir(DEFAULT_MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();

async function appliedNames(handle: DatabaseHandle): Promise<string[]> {
  const rows = await handle.db.selectFrom('schema_migrations').select('name').orderBy('name').execute();
  return rows.map((row) => row.name);
}

/** A copy of the migrations folder, to change a file of it without touching the project's. */
async function copyOfMigrations(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'portail-migrations-'));
  for (const file of await migrationFiles()) await copyFile(path.join(DEFAULT_MIGRATIONS_DIR, file), path.join(dir, file));
  return dir;
}

async function recordedChecksums(handle: DatabaseHandle): Promise<Record<string, string | null>> {
  const rows = await handle.db.selectFrom('schema_migrations').select(['name', 'checksum']).orderBy('name').execute();
  return Object.fromEntries(rows.map((row) => [row.name, row.checksum]));
}

async function tableExists(handle: DatabaseHandle, table: string): Promise<boolean> {
  const { rows } = await sql<{ found: string | null }>`select to_regclass(${table})::text as found`.execute(handle.db);
  return rows[0]?.found != null;
}

describe.each(backends)('migrations on $name', (backend) => {
  let testDb: TestDatabase;
  let firstRun: MigrateResult;

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    firstRun = await migrate(testDb.handle);
  }, 60_000);

  afterAll(async () => {
    await testDb?.dispose();
  });

  it('applies every migration file of a fresh database, in name order, and records each', async () => {
    const files = await migrationFiles();
    expect(files[0]).toBe('0001_init.sql');
    expect(firstRun.applied).toEqual(files);
    expect(await appliedNames(testDb.handle)).toEqual(files);
    const { rows } = await sql<{ table_name: string }>`
      select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(testDb.handle.db);
    expect(rows.map((row) => row.table_name)).toEqual(TABLES);
  });

  it("accepts every journal action and e-mail kind of the code once migrated (the checks each migration widened)", async () => {
    const actions = sql<{ def: string }>`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'audit_log_action_check'`;
    const kinds = sql<{ def: string }>`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'outbox_kind_check'`;
    const listed = (def: string) => [...def.matchAll(/'([^']+)'/g)].map((m) => m[1]).sort();
    expect(listed((await actions.execute(testDb.handle.db)).rows[0]!.def)).toEqual([...AUDIT_ACTIONS].sort());
    const outboxKinds: Record<OutboxKind, true> = {
      'account.invitation': true,
      'invitation.approved': true,
      'invitation.rejected': true,
      'email.change.confirm': true,
      'email.change.notice': true,
      'invitation.pending.digest': true,
      'invitation.expiring': true,
      'account.dormancy.warning': true,
      'dormancy.siren.unmanaged': true,
    };
    expect(listed((await kinds.execute(testDb.handle.db)).rows[0]!.def)).toEqual(Object.keys(outboxKinds).sort());
  });

  it('enables pg_trgm and builds the trigram indexes', async () => {
    const extension = await sql<{ extname: string }>`select extname from pg_extension where extname = 'pg_trgm'`.execute(testDb.handle.db);
    expect(extension.rows).toHaveLength(1);
    const { rows } = await sql<{ indexname: string }>`
      select indexname from pg_indexes where schemaname = current_schema() and indexdef like '%gin_trgm_ops%'
      order by indexname`.execute(testDb.handle.db);
    expect(rows.map((row) => row.indexname)).toEqual([
      'audit_log_address_more_idx',
      'audit_log_search_trgm_idx',
      'invitations_invitee_email_trgm_idx',
      'invitations_organization_code_trgm_idx',
      'organization_search_code_trgm_idx',
      'organization_search_name_trgm_idx',
      'organization_search_siren_name_trgm_idx',
      'user_search_email_trgm_idx',
      'user_search_name_trgm_idx',
      'user_search_phrase_counts_trgm_idx',
      'user_search_word_counts_trgm_idx',
      'users_email_trgm_idx',
      'users_full_name_trgm_idx',
    ]);
  });

  it('records the SHA-256 of each applied file', async () => {
    const expected: Record<string, string> = {};
    for (const file of await migrationFiles()) {
      expected[file] = createHash('sha256').update(await readFile(path.join(DEFAULT_MIGRATIONS_DIR, file), 'utf8')).digest('hex');
    }
    expect(await recordedChecksums(testDb.handle)).toEqual(expected);
  });

  it('fills in the checksums of files recorded before checksums existed, from the files as they are', async () => {
    const before = await recordedChecksums(testDb.handle);
    await testDb.handle.db.updateTable('schema_migrations').set({ checksum: null }).execute();
    expect(await migrate(testDb.handle)).toEqual({ applied: [] });
    expect(await recordedChecksums(testDb.handle)).toEqual(before);
  });

  it('refuses a migration edited after it was applied, naming the file, and applies no other', async () => {
    const dir = await copyOfMigrations();
    try {
      await appendFile(path.join(dir, '0002_audit_outbox.sql'), '\n-- edited afterwards\n');
      await writeFile(path.join(dir, '9002_new.sql'), 'CREATE TABLE after_an_edit (id integer);\n');
      const before = await recordedChecksums(testDb.handle);
      const error = await migrate(testDb.handle, { migrationsDir: dir }).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationChangedError);
      expect((error as Error).message).toMatch(/0002_audit_outbox\.sql a été modifiée après avoir été appliquée/);
      expect(await tableExists(testDb.handle, 'after_an_edit')).toBe(false);
      expect(await recordedChecksums(testDb.handle)).toEqual(before);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('counts a file whose only change is Windows line endings as the same file', async () => {
    const dir = await copyOfMigrations();
    try {
      const file = path.join(dir, '0003_outbox_retry.sql');
      await writeFile(file, (await readFile(file, 'utf8')).replace(/\n/g, '\r\n'));
      await expect(migrate(testDb.handle, { migrationsDir: dir })).resolves.toEqual({ applied: [] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('applies nothing when run again', async () => {
    const before = await appliedNames(testDb.handle);
    expect(await migrate(testDb.handle)).toEqual({ applied: [] });
    expect(await appliedNames(testDb.handle)).toEqual(before);
  });

  it('throws an error naming a broken migration and keeps none of its statements', async () => {
    const dir = await copyOfMigrations();
    try {
      await writeFile(
        path.join(dir, '9001_broken.sql'),
        'CREATE TABLE broken_partial (id integer);\nALTER TABLE users ADD COLUMN broken_column text;\nINSERT INTO no_such_table VALUES (1);\n',
      );
      const before = await appliedNames(testDb.handle);
      await expect(migrate(testDb.handle, { migrationsDir: dir })).rejects.toThrow(/9001_broken\.sql/);
      expect(await tableExists(testDb.handle, 'broken_partial')).toBe(false);
      const { rows } = await sql<{ n: number }>`
        select count(*) as n from information_schema.columns
        where table_schema = current_schema() and table_name = 'users' and column_name = 'broken_column'`.execute(testDb.handle.db);
      expect(rows[0]?.n).toBe(0);
      expect(await appliedNames(testDb.handle)).toEqual(before);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a migration file whose name does not follow NNNN_name.sql', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'portail-migrations-'));
    try {
      await writeFile(path.join(dir, 'add-things.sql'), 'SELECT 1;');
      await expect(migrate(testDb.handle, { migrationsDir: dir })).rejects.toThrow(/add-things\.sql/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('constraints of the schema', () => {
    const expectRefused = (statement: string) => expect(testDb.handle.exec(statement)).rejects.toThrow();
    const siren = '552100554';
    const siret = '55210055400013';

    beforeAll(async () => {
      await testDb.handle.exec(`
        insert into organizations (id, code, name, type) values ('00000000-0000-4000-8000-000000000001', '${siren}', 'Test', 'SIREN');
        insert into organizations (code, name, type, parent_id, parent_code)
          values ('${siret}', 'Test - Lyon', 'SIRET', '00000000-0000-4000-8000-000000000001', '${siren}');
        insert into users (email, first_name, last_name, user_type) values ('Jeanne.Test@example.fr', 'Jeanne', 'Test', 'ORGANIZATION');
      `);
    });

    it('refuses a code that is neither 9 nor 14 digits, and a type that does not match the length', async () => {
      await expectRefused(`insert into organizations (code, name, type) values ('12345', 'X', 'SIREN')`);
      await expectRefused(`insert into organizations (code, name, type) values ('12345678A', 'X', 'SIREN')`);
      await expectRefused(`insert into organizations (code, name, type, parent_id, parent_code)
        values ('111111111', 'X', 'SIRET', '00000000-0000-4000-8000-000000000001', '${siren}')`);
    });

    it('refuses a SIRET whose parent is not the SIREN of its first 9 digits, or has no parent', async () => {
      await expectRefused(`insert into organizations (code, name, type, parent_id, parent_code)
        values ('73282932000074', 'X', 'SIRET', '00000000-0000-4000-8000-000000000001', '${siren}')`);
      await expectRefused(`insert into organizations (code, name, type) values ('55210055400021', 'X', 'SIRET')`);
    });

    it('refuses a second user whose email differs only by case', async () => {
      await expectRefused(`insert into users (email, first_name, last_name, user_type) values ('jeanne.test@EXAMPLE.fr', 'J', 'T', 'ORGANIZATION')`);
    });

    it('refuses a second pending invitation for the same person, organization and role, whatever the case of the email', async () => {
      const values = (email: string, status = 'PENDING') =>
        `('${email}', '${siren}', 'Test', 'ADMIN_ADHERENT', 'Admin', '${status}', 'NEW_ADMIN', 'backoffice@portail.test')`;
      const columns = 'invitee_email, organization_code, organization_name, role_code, role_name, status, invitation_type, sender_email';
      await testDb.handle.exec(`insert into invitations (${columns}) values ${values('paul@example.fr')}`);
      await expectRefused(`insert into invitations (${columns}) values ${values('Paul@Example.fr')}`);
    });

    it('refuses a rejection without a reason of at least 10 characters after trimming, and a decision without date', async () => {
      const insert = (status: string, extra: string, extraValues: string) =>
        `insert into invitations (invitee_email, organization_code, organization_name, role_code, role_name, status, invitation_type, sender_email${extra})
         values ('rita@example.fr', '${siren}', 'Test', 'ADMIN_ADHERENT', 'Admin', '${status}', 'NEW_ADMIN', 'backoffice@portail.test'${extraValues})`;
      await expectRefused(insert('REJECTED', ', validator_email, processed_at, rejection_reason', ", 'v@x.fr', now(), '   court    '"));
      await expectRefused(insert('APPROVED', ', validator_email', ", 'v@x.fr'"));
      await expectRefused(insert('PENDING', ', rejection_reason', ", 'un motif assez long'"));
      await testDb.handle.exec(insert('REJECTED', ', validator_email, processed_at, rejection_reason', ", 'v@x.fr', now() + interval '1 minute', 'Motif de dix caractères'"));
    });
  });
});

describe.each(backends)('two migration runs started together on $name', (backend) => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
  }, 60_000);

  afterAll(async () => {
    await testDb?.dispose();
  });

  it('apply each file once between them', async () => {
    const other = backend.name === 'postgres' ? await testDb.openAnother() : testDb.handle;
    const results = await Promise.all([migrate(testDb.handle), migrate(other)]);
    const files = await migrationFiles();
    expect(results.flatMap((result) => result.applied).sort()).toEqual(files);
    expect(await appliedNames(testDb.handle)).toEqual(files);
  });
});
