// npm run bench:seed [-- --users 1000000] [--force]
// Replaces the content of the PostgreSQL database at DATABASE_URL with the benchmark data set.
import { checkBenchDatabase, parseSeedArgs } from './args.ts';
import { datasetSize } from './dataset.ts';
import { seedBenchDatabase } from './seed-runner.ts';

const n = (value: number) => value.toLocaleString('en');

async function main(): Promise<void> {
  const { users, force } = parseSeedArgs(process.argv.slice(2));
  const url = process.env.DATABASE_URL;
  const name = checkBenchDatabase(url, force);
  const size = datasetSize(users);
  const banner = '!'.repeat(110);
  console.log(
    [
      banner,
      `!!  bench:seed REPLACES EVERYTHING in the database '${name}' (${new URL(url!).host}): every table is dropped and rebuilt.`,
      `!!  ${n(size.users)} users, ${n(size.sirens)} SIRENs, ${n(size.sirets)} SIRETs, ~${n(size.assignments)} role assignments, ${n(size.invitations)} invitations, demo accounts included.`,
      banner,
    ].join('\n'),
  );
  const summary = await seedBenchDatabase(url!, users, (line) => console.log(line));
  const c = summary.counts;
  console.log(
    `Seeded '${name}' in ${summary.seconds.toFixed(0)} s: ${n(c.users)} users, ${n(c.sirens)} SIRENs, ${n(c.sirets)} SIRETs, ` +
      `${n(c.assignments)} role assignments, ${n(c.invitations)} invitations (${n(c.pending)} pending).`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
