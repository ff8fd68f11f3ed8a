// Applies migrations/NNNN_name.sql in name order, each in its own transaction, recorded in schema_migrations.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DatabaseHandle, RawTransaction } from './database.ts';

export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * Every run takes this transaction-level advisory lock before looking at schema_migrations, so two
 * processes starting together on one PostgreSQL apply each file once: the second waits, then sees it recorded.
 */
const MIGRATION_LOCK_KEY = 4_870_231_377;

const MIGRATION_FILE = /^\d{4}_[a-z0-9_]+\.sql$/;

export interface MigrateOptions {
  /** Folder of the .sql files; defaults to server/db/migrations. */
  migrationsDir?: string;
}

export interface MigrateResult {
  /** Names of the files applied by this run, in order (empty when already up to date). */
  applied: string[];
}

export async function migrate(handle: DatabaseHandle, options: MigrateOptions = {}): Promise<MigrateResult> {
  const dir = options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR;
  const files = await listMigrationFiles(dir);

  await handle.withRawTransaction(async (tx) => {
    await lock(tx);
    await tx.exec(`create table if not exists schema_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    )`);
  });

  const applied: string[] = [];
  for (const name of files) {
    const sql = await readFile(path.join(dir, name), 'utf8');
    const didApply = await handle.withRawTransaction(async (tx) => {
      await lock(tx);
      const done = await tx.query('select 1 from schema_migrations where name = $1', [name]);
      if (done.length > 0) return false;
      try {
        await tx.exec(sql);
      } catch (error) {
        throw new Error(`Migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        });
      }
      await tx.query('insert into schema_migrations (name) values ($1)', [name]);
      return true;
    });
    if (didApply) applied.push(name);
  }
  return { applied };
}

async function lock(tx: RawTransaction): Promise<void> {
  await tx.query('select pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
}

async function listMigrationFiles(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  const misnamed = names.filter((name) => !MIGRATION_FILE.test(name));
  if (misnamed.length > 0) {
    throw new Error(`Migration file names must look like NNNN_name.sql: ${misnamed.join(', ')} in ${dir}`);
  }
  return names;
}
