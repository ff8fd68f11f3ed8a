// Reading a CSV file as it downloads: how many records it holds so far, and the file's name. Pure.

/** Counts the records of a CSV file chunk by chunk: a line end outside a quoted cell ends one (a doubled quote toggles twice). */
export interface CsvRecordCounter {
  /** Records ended so far, the header line included. */
  records: number;
  inQuotes: boolean;
}

const QUOTE = 0x22;
const LF = 0x0a;

export const newCsvRecordCounter = (): CsvRecordCounter => ({ records: 0, inQuotes: false });

/** The counter after these bytes (UTF-8: a quote or a line feed byte is never part of another character). */
export function countCsvRecords(counter: CsvRecordCounter, chunk: Uint8Array): CsvRecordCounter {
  let { records, inQuotes } = counter;
  for (const byte of chunk) {
    if (byte === QUOTE) inQuotes = !inQuotes;
    else if (byte === LF && !inQuotes) records += 1;
  }
  return { records, inQuotes };
}

/** The data rows of a file whose first record is its header line. */
export const csvDataRows = (counter: CsvRecordCounter): number => Math.max(0, counter.records - 1);

/** The file name of a Content-Disposition header (`attachment; filename="users-2026-11-27.csv"`), else the fallback. */
export function fileNameFromDisposition(header: string | null | undefined, fallback: string): string {
  const name = /filename="([^"]+)"/.exec(header ?? '')?.[1] ?? /filename=([^;\s]+)/.exec(header ?? '')?.[1];
  // Only a plain name: no folder, whatever the header says.
  const plain = name?.split(/[\\/]/).pop()?.trim();
  return plain ? plain : fallback;
}
