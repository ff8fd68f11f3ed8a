import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { csvAttachment, csvCell, csvHead, csvLine, csvRows, frenchDateTime, type CsvColumn } from '../../../server/features/exports/csv.model.ts';

describe('the CSV of the exports', () => {
  it('starts the file with a byte-order mark and the French headers, separated by ; and ended by CRLF', () => {
    const columns: CsvColumn<{ a: string }>[] = [{ header: 'Nom', value: (r) => r.a }, { header: 'Prénom', value: () => 'x' }];
    expect(csvHead(columns)).toBe('\uFEFFNom;Prénom\r\n');
  });

  it('quotes a cell holding ; " CR or LF, doubling its quotes', () => {
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('dit "bonjour"')).toBe('"dit ""bonjour"""');
    expect(csvCell('deux\nlignes')).toBe('"deux\nlignes"');
    expect(csvCell('a\rb')).toBe('"a\rb"');
    expect(csvCell('simple, texte')).toBe('simple, texte');
  });

  it.each(['=HYPERLINK("http://x";"y")', '+33 6 12', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd'])('writes %j so that no spreadsheet runs it as a formula', (text) => {
    const cell = csvCell(text);
    const records = parse(csvLine([text]), { delimiter: ';', record_delimiter: '\r\n' }) as string[][];
    expect(records).toEqual([[`'${text}`]]);
    expect(cell.replace(/^"/, '')).toMatch(/^'/);
  });

  it('leaves a cell that only holds a formula character further on as it is', () => {
    expect(csvCell('Marie-Anne')).toBe('Marie-Anne');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes nothing for null, Oui / Non for a yes / no, numbers as they are', () => {
    expect(csvLine([null, undefined, true, false, 12])).toBe(';;Oui;Non;12\r\n');
  });

  it('writes dates as DD/MM/YYYY HH:MM in Europe/Paris, in winter and in summer time', () => {
    expect(frenchDateTime(new Date('2026-01-15T08:05:00Z'))).toBe('15/01/2026 09:05');
    expect(frenchDateTime(new Date('2026-07-14T22:30:00Z'))).toBe('15/07/2026 00:30');
    expect(frenchDateTime('2026-03-29T01:00:00Z')).toBe('29/03/2026 03:00');
    expect(frenchDateTime(null)).toBe('');
    expect(csvCell(new Date('2026-12-31T23:59:00Z'))).toBe('01/01/2027 00:59');
  });

  it('reads back, cell for cell, what it wrote', () => {
    type Row = { name: string; note: string | null };
    const columns: CsvColumn<Row>[] = [{ header: 'Nom', value: (r) => r.name }, { header: 'Note', value: (r) => r.note }];
    const rows: Row[] = [{ name: 'Bonnet; Zoé', note: 'ligne 1\r\nligne 2' }, { name: '"Noël"', note: null }, { name: '=1+1', note: '-' }];
    const text = csvHead(columns) + csvRows(columns, rows);
    expect(text.endsWith('\r\n')).toBe(true);
    const records = parse(text, { delimiter: ';', bom: true, record_delimiter: '\r\n' }) as string[][];
    expect(records).toEqual([['Nom', 'Note'], ['Bonnet; Zoé', 'ligne 1\r\nligne 2'], ['"Noël"', ''], ["'=1+1", "'-"]]);
  });

  it('names the file after the list and the day in Europe/Paris', () => {
    expect(csvAttachment('users', new Date('2026-11-26T23:30:00Z'))).toEqual({
      fileName: 'users-2026-11-27.csv',
      contentDisposition: 'attachment; filename="users-2026-11-27.csv"',
    });
  });
});
