// npm run bench:journal -- --entries 10000000 [--force]
// Adds the journal of issue 21 to the benchmark database at DATABASE_URL (seeded by npm run bench:seed): applies
// the server's migrations, then replaces the journal with `entries` entries over the last year (journal-sql.ts).
import pg from 'pg';
import { openDatabase } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { REFERENCE_DATE } from '../server/seed/seed-data.ts';
import { checkBenchDatabase } from './args.ts';
import { parseCount } from './dataset.ts';
import { journalSteps } from './journal-sql.ts';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--entries');
  const entries = at >= 0 ? parseCount(argv[at + 1] ?? '') : 10_000_000;
  const url = process.env.DATABASE_URL;
  const name = checkBenchDatabase(url, argv.includes('--force'));
  console.log(`bench:journal REPLACES the journal of '${name}' with ${entries.toLocaleString('en')} entries.`);
  const handle = await openDatabase({ databaseUrl: url!, poolMax: 2 });
  try {
    const { applied } = await migrate(handle);
    console.log(`  migrations applied: ${applied.join(', ') || 'none'}`);
  } finally {
    await handle.close();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const started = performance.now();
  try {
    for (const step of journalSteps(entries, REFERENCE_DATE)) {
      const stepStarted = performance.now();
      await client.query(step.sql);
      console.log(`  ${step.label.padEnd(30)} ${((performance.now() - stepStarted) / 1000).toFixed(1)} s`);
    }
    const { rows } = await client.query(`select (select count(*) from audit_log)::bigint as entries, (select count(*) from audit_log_organizations)::bigint as organizations,
      pg_size_pretty(pg_total_relation_size('audit_log')) as journal_size, pg_size_pretty(pg_total_relation_size('audit_log_organizations')) as organizations_size`);
    console.log(`Journal of '${name}' in ${((performance.now() - started) / 1000).toFixed(0)} s: ${JSON.stringify(rows[0])}`);
  } finally {
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
