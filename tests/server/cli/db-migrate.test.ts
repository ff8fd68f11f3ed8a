// npm run db:migrate (server/cli/db-migrate.ts): on a PGlite data folder and on PostgreSQL (DATABASE_URL).
import { spawnSync } from 'node:child_process';
import { appendFile, copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbMigrate } from '../../../server/cli/db-migrate.ts';
import type { CommandIo } from '../../../server/cli/command.ts';
import { DEFAULT_MIGRATIONS_DIR } from '../../../server/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../db/test-databases.ts';
import { describeOnPostgres } from '../../support/on-postgres.ts';

const migrationFiles = async () => (await readdir(DEFAULT_MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();

function io(env: Record<string, string>): CommandIo & { output: string[]; errors: string[] } {
  const output: string[] = [];
  const errors: string[] = [];
  return { env, output, errors, out: (line) => void output.push(line), err: (line) => void errors.push(line) };
}

/** The command on a database, then again, then with one applied file edited. */
function behavesAsACommand(environment: () => Record<string, string>) {
  it('applies every migration, prints each, and answers 0', async () => {
    const run = io(environment());
    expect(await dbMigrate(run, [])).toBe(0);
    const files = await migrationFiles();
    expect(run.errors).toEqual([]);
    for (const file of files) expect(run.output.join('\n')).toContain(file);
    expect(run.output.join('\n')).toContain(`${files.length} migration(s) appliquée(s)`);
  });

  it('says the database is up to date when run again, and answers 0', async () => {
    const run = io(environment());
    expect(await dbMigrate(run, [])).toBe(0);
    expect(run.output).toEqual(['Base à jour : aucune migration à appliquer.']);
  });

  it('refuses an applied migration whose file changed, naming it, and answers 1', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'portail-migrations-'));
    try {
      for (const file of await migrationFiles()) await copyFile(path.join(DEFAULT_MIGRATIONS_DIR, file), path.join(dir, file));
      await appendFile(path.join(dir, '0001_init.sql'), '\n-- edited\n');
      const run = io(environment());
      expect(await dbMigrate(run, [], { migrationsDir: dir })).toBe(1);
      expect(run.errors.join('\n')).toMatch(/^Échec de la migration de la base : La migration 0001_init\.sql a été modifiée/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}

describe('db:migrate on a PGlite data folder', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portail-cli-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  behavesAsACommand(() => ({ DATA_DIR: dataDir }));

  it('runs as npm runs it, and answers 1 with the reason when the database cannot be reached', () => {
    const result = spawnSync(process.execPath, ['server/cli/db-migrate.ts'], {
      env: { ...process.env, DATABASE_URL: 'postgres://nobody:nothing@127.0.0.1:1/none' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Échec de la migration de la base');
  });
});

describeOnPostgres('db:migrate on PostgreSQL (DATABASE_URL)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ name: 'postgres' });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  behavesAsACommand(() => ({ DATABASE_URL: database.url! }));
});
