import { describe, expect, it } from 'vitest';
import { countCsvRecords, csvDataRows, fileNameFromDisposition, newCsvRecordCounter } from '../../src/domain/csv-download';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('reading a CSV file as it downloads', () => {
  it('counts records across chunks, a line end inside a quoted cell or a doubled quote aside', () => {
    let counter = newCsvRecordCounter();
    for (const chunk of ['\uFEFFNom;Note\r', '\nA;"deux\r\nlig', 'nes"\r\nB;"dit ""x"""\r\n', 'C;\r\n']) counter = countCsvRecords(counter, bytes(chunk));
    expect(counter).toEqual({ records: 4, inQuotes: false });
    expect(csvDataRows(counter)).toBe(3);
    expect(csvDataRows(newCsvRecordCounter())).toBe(0);
  });

  it('reads the file name of Content-Disposition, never a folder', () => {
    expect(fileNameFromDisposition('attachment; filename="users-2026-11-27.csv"', 'x.csv')).toBe('users-2026-11-27.csv');
    expect(fileNameFromDisposition('attachment; filename=journal.csv', 'x.csv')).toBe('journal.csv');
    expect(fileNameFromDisposition('attachment; filename="../../etc/passwd"', 'x.csv')).toBe('passwd');
    expect(fileNameFromDisposition(null, 'x.csv')).toBe('x.csv');
  });
});
