// The Sirene import (issue 17, `npm run orgs:import`): the OPCO's members' SIRENs from a file, their legal units
// and establishments from INSEE's stock files, merged into organizations in one transaction.
// The files are streamed: only one batch of rows and the members' SIRENs are ever in memory, whatever their size.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { CsvError, parse, type Options } from 'csv-parse';
import type { DatabaseHandle, RawTransaction } from '../../db/database.ts';
import {
  countChanges,
  createStagingTables,
  firstDuplicate,
  firstOrphanEstablishment,
  indexStagingTables,
  membersMissingFromUnits,
  mergeIntoOrganizations,
  nameEstablishments,
  stageEstablishments,
  stageMembers,
  stageUnits,
} from './sirene-import.repository.ts';
import {
  columnIndexes,
  ESTABLISHMENT_COLUMNS,
  memberSiren,
  noChange,
  SireneFileError,
  stagedEstablishment,
  stagedUnit,
  UNIT_COLUMNS,
  type SireneImportCounts,
  type StagedEstablishment,
  type StagedUnit,
} from './sirene.model.ts';

export interface SireneFiles {
  /** StockUniteLegale (CSV, UTF-8, INSEE's column names). */
  units: string;
  /** StockEtablissement (CSV, UTF-8, INSEE's column names). */
  establishments: string;
  /** The members' SIRENs: one a line, or a CSV with a `siren` column (comma or semicolon). */
  members: string;
}

export type SireneImportStep = 'members' | 'units' | 'establishments' | 'merge';

export interface SireneProgress {
  step: SireneImportStep;
  /** The file being read (the step 'merge' has none). */
  file: string | null;
  bytesRead: number;
  totalBytes: number;
  /** Rows read so far in this file. */
  rows: number;
}

export interface SireneImportOptions {
  dryRun: boolean;
  /** Rows per statement while staging (default 5,000). */
  batchSize?: number;
  onProgress?: (progress: SireneProgress) => void;
}

export interface SireneImportResult {
  dryRun: boolean;
  counts: SireneImportCounts;
  changed: boolean;
  /** Rows read: members' SIRENs (distinct), legal units and establishments (all, and those of members). */
  read: { members: number; units: number; memberUnits: number; establishments: number; memberEstablishments: number };
  /** Members' SIRENs the legal units' file lacks: not added (one already known stays a member). */
  membersMissingFromUnits: number;
}

const DEFAULT_BATCH = 5_000;
/** Rows between two progress reports. */
const REPORT_EVERY = 2_000;

/** A record and the line it ends on. */
interface RowAt {
  row: string[];
  line: number;
}

/** Rows of a CSV file with their line number; a malformed row (quotes, column count) becomes a SireneFileError. */
async function* csvRows(
  file: string,
  options: { delimiter: string | string[]; relaxColumnCount: boolean },
): AsyncGenerator<{ row: string[]; line: number; bytesRead: number }> {
  const name = path.basename(file);
  const input = createReadStream(file);
  // The line of each record through on_record: csv-parse's `info` option builds an object per record and makes
  // the parsing about twice as slow on INSEE's wide rows.
  const withLines: Options<RowAt, string[]> = {
    bom: true,
    delimiter: options.delimiter,
    relax_column_count: options.relaxColumnCount,
    skip_empty_lines: true,
    on_record: (record, context) => ({ row: record, line: context.lines }),
  };
  // csv-parse's types give a transformed record to the `columns` overloads only.
  const parser = parse(withLines as unknown as Options);
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  let last = 0;
  try {
    for await (const { row, line } of parser as AsyncIterable<RowAt>) {
      last = line;
      yield { row, line, bytesRead: input.bytesRead };
    }
  } catch (error) {
    // A quote left open is only noticed at the end of the file: it opened in the record after the last one read.
    if (error instanceof CsvError && error.code === 'CSV_QUOTE_NOT_CLOSED') throw new SireneFileError(name, last + 1, 'guillemet ouvert et jamais fermé');
    if (error instanceof CsvError) throw new SireneFileError(name, csvErrorLine(error), csvErrorReason(error));
    throw error;
  } finally {
    input.destroy();
  }
}

function csvErrorLine(error: CsvError): number {
  const lines = (error as unknown as { lines?: number }).lines;
  return typeof lines === 'number' ? lines : 0;
}

function csvErrorReason(error: CsvError): string {
  const record = (error as unknown as { record?: unknown[] }).record;
  if (error.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH' && Array.isArray(record)) {
    return `${record.length} colonnes au lieu de celles de l'en-tête (${error.message})`;
  }
  return `CSV mal formé (${error.code} : ${error.message})`;
}

/** The members' SIRENs (distinct): a file of one SIREN a line, or a CSV whose header has a `siren` column. */
async function readMembers(file: string, report: (bytes: number, rows: number) => void): Promise<Set<string>> {
  const name = path.basename(file);
  const members = new Set<string>();
  let column = 0;
  let first = true;
  let rows = 0;
  let bytes = 0;
  for await (const { row, line, bytesRead } of csvRows(file, { delimiter: [',', ';'], relaxColumnCount: true })) {
    bytes = bytesRead;
    if (first) {
      first = false;
      const header = row.map((cell) => cell.trim().toLowerCase());
      if (header.includes('siren')) {
        column = header.indexOf('siren');
        continue;
      }
      // No header naming `siren`: a file of one SIREN a line (its first line is a SIREN), else a CSV without the column.
      if (row.length > 1) throw new SireneFileError(name, line, "pas de colonne « siren » dans l'en-tête");
    }
    rows += 1;
    members.add(memberSiren(name, line, row[column] ?? ''));
    if (rows % REPORT_EVERY === 0) report(bytes, rows);
  }
  report(bytes, rows);
  return members;
}

/** Streams a stock file into its staging table, checking every row and keeping the members' ones. */
async function stageFile<C extends string, T extends { siren: string }>(
  file: string,
  columns: readonly C[],
  toRow: (file: string, line: number, row: readonly string[], at: Record<C, number>) => T,
  keep: (siren: string) => boolean,
  write: (rows: T[]) => Promise<void>,
  batchSize: number,
  report: (bytes: number, rows: number) => void,
): Promise<{ rows: number; kept: number }> {
  const name = path.basename(file);
  let at: Record<C, number> | null = null;
  let batch: T[] = [];
  let rows = 0;
  let kept = 0;
  let bytes = 0;
  for await (const { row, line, bytesRead } of csvRows(file, { delimiter: ',', relaxColumnCount: false })) {
    bytes = bytesRead;
    if (!at) {
      at = columnIndexes(name, row, columns);
      continue;
    }
    rows += 1;
    if (rows % REPORT_EVERY === 0) report(bytes, rows);
    const staged = toRow(name, line, row, at);
    if (!keep(staged.siren)) continue;
    batch.push(staged);
    kept += 1;
    if (batch.length >= batchSize) {
      await write(batch);
      batch = [];
    }
  }
  if (!at) throw new SireneFileError(name, 1, 'fichier vide : en-tête attendu');
  if (batch.length > 0) await write(batch);
  report(bytes, rows);
  return { rows, kept };
}

async function requireNoDuplicate(tx: RawTransaction, table: 'sirene_units' | 'sirene_establishments', file: string): Promise<void> {
  const duplicate = await firstDuplicate(tx, table);
  if (duplicate) {
    const what = table === 'sirene_units' ? 'siren' : 'siret';
    throw new SireneFileError(path.basename(file), duplicate.again, `${what} ${duplicate.code} en double (déjà ligne ${duplicate.first})`);
  }
}

export function sireneImportService({ handle }: { handle: DatabaseHandle }) {
  return {
    /**
     * Reads the three files and merges them into organizations in one transaction: a malformed row stops the
     * import with its file and line, and nothing is applied. A dry run reads and counts the same, and changes nothing.
     */
    async run(files: SireneFiles, options: SireneImportOptions): Promise<SireneImportResult> {
      const batchSize = options.batchSize ?? DEFAULT_BATCH;
      const sizes = {
        members: (await stat(files.members)).size,
        units: (await stat(files.units)).size,
        establishments: (await stat(files.establishments)).size,
      };
      const reporter = (step: Exclude<SireneImportStep, 'merge'>) => (bytesRead: number, rows: number) =>
        options.onProgress?.({ step, file: files[step], bytesRead, totalBytes: sizes[step], rows });

      const members = await readMembers(files.members, reporter('members'));
      const isMember = (siren: string) => members.has(siren);

      const result = await handle.withRawTransaction(async (tx) => {
        await createStagingTables(tx);
        const all = [...members];
        for (let i = 0; i < all.length; i += batchSize) await stageMembers(tx, all.slice(i, i + batchSize));
        const units = await stageFile<(typeof UNIT_COLUMNS)[number], StagedUnit>(
          files.units, UNIT_COLUMNS, stagedUnit, isMember, (rows) => stageUnits(tx, rows), batchSize, reporter('units'),
        );
        const establishments = await stageFile<(typeof ESTABLISHMENT_COLUMNS)[number], StagedEstablishment>(
          files.establishments, ESTABLISHMENT_COLUMNS, stagedEstablishment, isMember, (rows) => stageEstablishments(tx, rows), batchSize, reporter('establishments'),
        );
        options.onProgress?.({ step: 'merge', file: null, bytesRead: 0, totalBytes: 0, rows: 0 });
        await indexStagingTables(tx);
        await requireNoDuplicate(tx, 'sirene_units', files.units);
        await requireNoDuplicate(tx, 'sirene_establishments', files.establishments);
        const orphan = await firstOrphanEstablishment(tx);
        if (orphan) {
          throw new SireneFileError(
            path.basename(files.establishments),
            orphan.line,
            `le siret ${orphan.siret} appartient au SIREN membre ${orphan.siren}, absent du fichier des unités légales (${path.basename(files.units)})`,
          );
        }
        await nameEstablishments(tx);
        const counts = await countChanges(tx);
        if (!options.dryRun && !noChange(counts)) await mergeIntoOrganizations(tx);
        return {
          counts,
          read: { members: members.size, units: units.rows, memberUnits: units.kept, establishments: establishments.rows, memberEstablishments: establishments.kept },
          membersMissingFromUnits: await membersMissingFromUnits(tx),
        };
      });
      const changed = !options.dryRun && !noChange(result.counts);
      // Fresh statistics after a large change, for the lists' plans (outside the transaction, which is over).
      if (changed) await handle.exec('analyze organizations');
      return { dryRun: options.dryRun, changed, ...result };
    },
  };
}

export type SireneImportService = ReturnType<typeof sireneImportService>;
