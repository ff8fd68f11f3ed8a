// npm run orgs:import -- --units StockUniteLegale.csv --establishments StockEtablissement.csv --members membres.csv [--dry-run]
// Organizations from the INSEE Sirene register (issue 17; docs/operating/organizations-import.md).
import path from 'node:path';
import { SingleBar } from 'cli-progress';
import { openDatabase } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { SireneFileError } from '../server/features/organizations/sirene.model.ts';
import { sireneImportService, type SireneProgress } from '../server/features/organizations/sirene-import.service.ts';
import { formatSummary, HELP, parseImportArgs } from './orgs-import-cli.ts';

const STEP_LABELS: Record<SireneProgress['step'], string> = {
  members: 'Adhérents',
  units: 'Unités légales',
  establishments: 'Établissements',
  merge: 'Fusion',
};

/** A bar on a terminal; elsewhere (CI logs, cron) one line on stderr at each tenth of a file. */
function progressReporter(): { report: (progress: SireneProgress) => void; stop: () => void } {
  if (process.stderr.isTTY) {
    const bar = new SingleBar({ format: '{step} |{bar}| {percentage}% | {rows} lignes | reste {eta_formatted}', stream: process.stderr, hideCursor: true, etaBuffer: 50 });
    let step: string | null = null;
    return {
      report(p) {
        if (p.step === 'merge') {
          bar.stop();
          step = p.step;
          process.stderr.write('Contrôles et fusion dans la base…\n');
          return;
        }
        if (p.step !== step) {
          if (step) bar.stop();
          step = p.step;
          bar.start(Math.max(p.totalBytes, 1), 0, { step: STEP_LABELS[p.step].padEnd(15), rows: 0 });
        }
        bar.update(p.bytesRead, { rows: p.rows.toLocaleString('fr-FR') });
      },
      stop: () => bar.stop(),
    };
  }
  let last = { step: '', tenth: -1 };
  return {
    report(p) {
      const tenth = p.totalBytes > 0 ? Math.floor((p.bytesRead / p.totalBytes) * 10) : 10;
      if (p.step === last.step && tenth === last.tenth) return;
      last = { step: p.step, tenth };
      const where = p.step === 'merge' ? 'contrôles et fusion dans la base…' : `${tenth * 10} % (${p.rows.toLocaleString('fr-FR')} lignes)`;
      process.stderr.write(`[orgs:import] ${STEP_LABELS[p.step]} : ${where}\n`);
    },
    stop: () => undefined,
  };
}

async function main(): Promise<number> {
  const command = parseImportArgs(process.argv.slice(2));
  if (command.kind === 'help') {
    console.log(HELP);
    return 0;
  }
  // The server's database (server/config.ts): DATABASE_URL, else PGlite in DATA_DIR/pglite.
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = path.join(path.resolve(process.env.DATA_DIR || '.data'), 'pglite');
  const handle = await openDatabase(databaseUrl ? { databaseUrl, poolMax: 2 } : { dataDir });
  const progress = progressReporter();
  try {
    await migrate(handle);
    const started = performance.now();
    const result = await sireneImportService({ handle }).run(command.files, { dryRun: command.dryRun, onProgress: progress.report });
    progress.stop();
    console.log(formatSummary(result, (performance.now() - started) / 1000));
    return 0;
  } finally {
    progress.stop();
    await handle.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof SireneFileError) console.error(`Import refusé, rien n'a été modifié. ${error.message}`);
    else console.error(`Import échoué, rien n'a été modifié : ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
