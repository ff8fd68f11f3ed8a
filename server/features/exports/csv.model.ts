// CSV for a French spreadsheet, pure: UTF-8 with a byte-order mark, ';' between cells, CRLF line ends, French
// dates, and no cell that a spreadsheet would run as a formula. Every export of a list (users, journal) is
// written with these functions: a list of columns, then rows in batches (exports.service.ts streams them).

/** What a cell may hold: text, a number, a yes/no, a moment (written as a French date), or nothing. */
export type CsvValue = string | number | boolean | Date | null | undefined;

/** A column of an export: its French header and how a row fills it. */
export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => CsvValue;
}

/** The byte-order mark: Excel reads the file as UTF-8 only when it starts with one. */
export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ';';
export const CSV_LINE_END = '\r\n';

/** A cell starting with one of these is read as a formula by Excel, LibreOffice or Google Sheets (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell holding one of these is quoted. */
const NEEDS_QUOTES = /[;"\r\n]/;

const PARIS = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function parisParts(moment: Date): Record<'year' | 'month' | 'day' | 'hour' | 'minute', string> {
  const parts = Object.fromEntries(PARIS.formatToParts(moment).map((p) => [p.type, p.value]));
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
}

/** DD/MM/YYYY HH:MM in Europe/Paris (summer and winter time alike); empty for no date. */
export function frenchDateTime(moment: Date | string | null | undefined): string {
  if (moment === null || moment === undefined || moment === '') return '';
  const date = moment instanceof Date ? moment : new Date(moment);
  if (Number.isNaN(date.getTime())) return '';
  const p = parisParts(date);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/** DD/MM/YYYY of this moment in Europe/Paris. */
export function frenchDate(moment: Date): string {
  const p = parisParts(moment);
  return `${p.day}/${p.month}/${p.year}`;
}

/** YYYY-MM-DD of this moment in Europe/Paris, for a file's name. */
export function parisDay(moment: Date): string {
  const p = parisParts(moment);
  return `${p.year}-${p.month}-${p.day}`;
}

/** A cell as written: a formula neutralised by a leading apostrophe, then quoted when it holds ; " CR or LF. */
export function csvCell(value: CsvValue): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (value instanceof Date) text = frenchDateTime(value);
  else if (typeof value === 'boolean') text = value ? 'Oui' : 'Non';
  else text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line, with its CRLF. */
export function csvLine(cells: readonly CsvValue[]): string {
  return cells.map(csvCell).join(CSV_SEPARATOR) + CSV_LINE_END;
}

/** The first chunk of a file: the byte-order mark and the header line. */
export function csvHead<Row>(columns: readonly CsvColumn<Row>[]): string {
  return CSV_BOM + csvLine(columns.map((c) => c.header));
}

/** The lines of these rows, as one chunk. */
export function csvRows<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  let chunk = '';
  for (const row of rows) chunk += csvLine(columns.map((c) => c.value(row)));
  return chunk;
}

/** `attachment; filename="{name}-{YYYY-MM-DD}.csv"`, the day in Europe/Paris. */
export function csvAttachment(name: string, now: Date): { fileName: string; contentDisposition: string } {
  const fileName = `${name}-${parisDay(now)}.csv`;
  return { fileName, contentDisposition: `attachment; filename="${fileName}"` };
}
