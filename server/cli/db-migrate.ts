// npm run db:migrate: applies the pending migrations (server/db/migrate.ts) to the database the server uses
// (DATABASE_URL, else the PGlite folder of DATA_DIR), prints what it applied, and answers 1 on any failure —
// a migration that fails, or one edited after it was applied. The server still applies them at start;
// running this first, in a deployment's release step, keeps a slow migration out of the servers' start.
import { databaseOptions, readDatabaseConfig } from '../config.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { migrate, type MigrateOptions } from '../db/migrate.ts';
import { messageOf, runWhenStarted, type CommandIo } from './command.ts';

export async function dbMigrate(io: CommandIo, _args: readonly string[], options: MigrateOptions = {}): Promise<number> {
  let database: DatabaseHandle | null = null;
  try {
    const config = readDatabaseConfig(io.env);
    database = await openDatabase({ ...databaseOptions(config), ...(config.databaseUrl ? { poolMax: 2 } : {}) });
    const { applied } = await migrate(database, options);
    if (applied.length === 0) io.out('Base à jour : aucune migration à appliquer.');
    else {
      for (const name of applied) io.out(`appliquée : ${name}`);
      io.out(`${applied.length} migration(s) appliquée(s).`);
    }
    return 0;
  } catch (error) {
    io.err(`Échec de la migration de la base : ${messageOf(error)}`);
    return 1;
  } finally {
    await database?.close().catch(() => undefined);
  }
}

runWhenStarted(import.meta.url, dbMigrate);
