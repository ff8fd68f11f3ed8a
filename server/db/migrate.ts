// Applies migrations/NNNN_name.sql in name order, each in its own transaction, recorded in schema_migrations
// with the SHA-256 of its text; a file changed after it was applied stops every run (MigrationChangedError).
// The server runs it at start, and `npm run db:migrate` (server/cli/db-migrate.ts) on its own.
import { createHash } from 'node:crypto';
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

/** A migration whose file no longer holds what was applied: nothing is applied until the file is put back. */
export class MigrationChangedError extends Error {
  readonly file: string;
  constructor(file: string, recorded: string, current: string) {
    super(
      `La migration ${file} a été modifiée après avoir été appliquée (SHA-256 enregistré ${recorded.slice(0, 12)}…, fichier ${current.slice(0, 12)}…). ` +
        'Une migration appliquée ne se modifie jamais : remettez le fichier tel qu’il était et écrivez le changement dans une nouvelle migration.',
    );
    this.name = 'MigrationChangedError';
    this.file = file;
  }
}

/** SHA-256 of a migration's text, its line endings made \n first: a checkout with CRLF endings is the same file. */
export function migrationChecksum(text: string): string {
  return createHash('sha256').update(text.replace(/\r\n/g, '\n')).digest('hex');
}

export async function migrate(handle: DatabaseHandle, options: MigrateOptions = {}): Promise<MigrateResult> {
  const dir = options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR;
  const files = await listMigrationFiles(dir);
  const texts = new Map<string, string>();
  for (const name of files) texts.set(name, await readFile(path.join(dir, name), 'utf8'));

  await handle.withRawTransaction(async (tx) => {
    await lock(tx);
    await tx.exec(`create table if not exists schema_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    );
    alter table schema_migrations add column if not exists checksum text`);
    await checkAppliedFiles(tx, texts);
  });

  const applied: string[] = [];
  for (const name of files) {
    const sql = texts.get(name)!;
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
      await tx.query('insert into schema_migrations (name, checksum) values ($1, $2)', [name, migrationChecksum(sql)]);
      return true;
    });
    if (didApply) applied.push(name);
  }
  return { applied };
}

/**
 * Every applied file must still hold what was applied. Rows recorded before checksums existed (databases
 * migrated by earlier versions) have none: they get the checksum of the file as it is now, on the first run
 * of this version. That trusts those files once, which is what the earlier versions did on every run; from
 * then on, any change to them is refused. A recorded name without its file (an older checkout) is left alone.
 */
async function checkAppliedFiles(tx: RawTransaction, texts: ReadonlyMap<string, string>): Promise<void> {
  const rows = await tx.query<{ name: string; checksum: string | null }>('select name, checksum from schema_migrations order by name');
  for (const row of rows) {
    const text = texts.get(row.name);
    if (text === undefined) continue;
    const current = migrationChecksum(text);
    if (row.checksum === null) await tx.query('update schema_migrations set checksum = $2 where name = $1', [row.name, current]);
    else if (row.checksum !== current) throw new MigrationChangedError(row.name, row.checksum, current);
  }
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
