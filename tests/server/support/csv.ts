// An export's file as a French spreadsheet reads it: the records, header first, after checking its bytes' form.
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';

export function readCsv(text: string, headers: readonly string[]): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  // No bare LF outside a quoted cell: every record ends with CRLF.
  const records = parse(text, { bom: true, delimiter: ';', record_delimiter: '\r\n' }) as string[][];
  expect(records[0]).toEqual(headers);
  return records;
}
