// The generated Sirene stock of the import benchmark (bench/sirene-files.ts): INSEE's column sets as the test
// extract has them, valid codes, and files the import accepts.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSireneFiles, type GeneratedSireneFiles } from '../../bench/sirene-files.ts';
import { isValidSiren, isValidSiret } from '../../rules/codes.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { sireneImportService } from '../../server/features/organizations/sirene-import.service.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/sirene/', import.meta.url));
const firstLine = async (file: string) => (await readFile(file, 'utf8')).split('\n')[0];

describe('the generated Sirene stock', () => {
  let dir: string;
  let files: GeneratedSireneFiles;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sirene-files-'));
    files = await generateSireneFiles(dir, { establishments: 1_000, perUnit: 4, memberShare: 0.5 });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("has the test extract's INSEE headers, valid codes and the sizes asked for", async () => {
    expect(await firstLine(files.units)).toBe(await firstLine(path.join(FIXTURES, 'StockUniteLegale.csv')));
    expect(await firstLine(files.establishments)).toBe(await firstLine(path.join(FIXTURES, 'StockEtablissement.csv')));
    const rows = (await readFile(files.establishments, 'utf8')).trim().split('\n').slice(1);
    expect(rows).toHaveLength(1_000);
    expect(rows.every((row) => isValidSiren(row.split(',')[0]!) && isValidSiret(row.split(',')[2]!))).toBe(true);
    expect(files.counts.units).toBe(250);
    expect(files.counts.members).toBeGreaterThan(80);
    expect(files.counts.members).toBeLessThan(170);
  });

  it('is accepted by the import, which keeps the members only', async () => {
    const handle = await openDatabase({});
    try {
      await migrate(handle);
      const result = await sireneImportService({ handle }).run(files, { dryRun: false });
      expect(result.counts.sirensAdded).toBe(files.counts.members);
      expect(result.read).toMatchObject({ units: 250, memberUnits: files.counts.members, establishments: 1_000, memberEstablishments: files.counts.members * 4 });
    } finally {
      await handle.close();
    }
  }, 60_000);
});
