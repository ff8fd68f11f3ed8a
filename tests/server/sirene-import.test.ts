// The Sirene import (issue 17) on its test extract (tests/fixtures/sirene/), on PGlite and PostgreSQL.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.ts';
import { sireneImportService, type SireneFiles } from '../../server/features/organizations/sirene-import.service.ts';
import { SireneFileError, type SireneImportCounts } from '../../server/features/organizations/sirene.model.ts';
import { backends, createSeededTestDatabase, createTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { migratedTestDatabase } from './support/migrated-database.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/sirene/', import.meta.url));
const fixture = (name: string) => path.join(FIXTURES, name);
const EXTRACT: SireneFiles = {
  units: fixture('StockUniteLegale.csv'),
  establishments: fixture('StockEtablissement.csv'),
  members: fixture('membres.csv'),
};

const GENETS = '782416531';
const BAKER = '523187649';
const NONE: SireneImportCounts = {
  sirensAdded: 0,
  sirensRenamed: 0,
  sirensNoLongerMembers: 0,
  sirensBackToMembers: 0,
  siretsAdded: 0,
  siretsRenamed: 0,
  siretsClosed: 0,
  siretsReopened: 0,
};

async function organizations(db: TestDatabase) {
  return db.handle.db
    .selectFrom('organizations')
    .select(['code', 'name', 'type', 'parent_code', 'member', 'closed', 'updated_at'])
    .orderBy('code')
    .execute();
}

const nameOf = async (db: TestDatabase, code: string) => (await organizations(db)).find((o) => o.code === code);

describe.each(backends)('Sirene import on $name', (backend) => {
  let work: string;
  let db: TestDatabase;
  const importer = () => sireneImportService({ handle: db.handle });

  /** A copy of a fixture in the work folder, each line passed through `edit` (line numbers from 1, header included). */
  async function edited(name: string, edit: (line: string, n: number) => string): Promise<string> {
    const lines = (await readFile(fixture(name), 'utf8')).split('\n');
    const target = path.join(work, name);
    await writeFile(target, lines.map((line, i) => (line ? edit(line, i + 1) : line)).join('\n'));
    return target;
  }

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'sirene-test-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  describe('on a migrated empty database', () => {
    beforeEach(async () => {
      db = await createTestDatabase(backend);
      await migrate(db.handle);
    }, 60_000);
    afterEach(async () => {
      await db?.dispose();
    });

    it("imports the members' legal units and establishments with their names, and leaves the others out", async () => {
      const result = await importer().run(EXTRACT, { dryRun: false });

      expect(result.counts).toEqual({ ...NONE, sirensAdded: 5, siretsAdded: 8 });
      expect(result.read).toEqual({ members: 5, units: 6, memberUnits: 5, establishments: 9, memberEstablishments: 8 });
      const rows = await organizations(db);
      expect(rows.map((o) => [o.code, o.name, o.type, o.parent_code, o.member, o.closed])).toEqual([
        ['442198750', 'AIDE A DOMICILE DU VAL', 'SIREN', null, true, false],
        ['44219875000014', 'AIDE A DOMICILE DU VAL - ROUEN', 'SIRET', '442198750', true, true],
        ['775123987', 'CLINIQUE SAINT-LUC', 'SIREN', null, true, false],
        ['77512398700015', 'CLINIQUE SAINT-LUC - LILLE', 'SIRET', '775123987', true, false],
        ['77512398700023', "CENTRE DE REEDUCATION SAINT-LUC - VILLENEUVE-D'ASCQ", 'SIRET', '775123987', true, false],
        ['782416531', 'ASSOCIATION LES GENETS', 'SIREN', null, true, false],
        ['78241653100013', 'EHPAD LES GENETS - LYON 3E ARRONDISSEMENT', 'SIRET', '782416531', true, false],
        ['78241653100021', 'ASSOCIATION LES GENETS - VILLEURBANNE', 'SIRET', '782416531', true, false],
        ['78241653100039', 'SSIAD LES GENETS - BRON', 'SIRET', '782416531', true, true],
        // A natural person: 'prenom1UniteLegale nomUniteLegale'.
        ['812345676', 'MARIE DUPONT', 'SIREN', null, true, false],
        ['81234567600017', 'CABINET INFIRMIER DUPONT - NANTES', 'SIRET', '812345676', true, false],
        // Not for publication (statutDiffusion P): the spec's fallbacks.
        ['833456718', 'SIREN 833456718', 'SIREN', null, true, false],
        ['83345671800018', 'Sans nom', 'SIRET', '833456718', true, false],
      ]);
      expect(rows.some((o) => o.code.startsWith(BAKER))).toBe(false);
      expect(result.changed).toBe(true);
    });

    it('changes nothing when run a second time on the same files', async () => {
      await importer().run(EXTRACT, { dryRun: false });
      const before = await organizations(db);

      const again = await importer().run(EXTRACT, { dryRun: false });

      expect(again.counts).toEqual(NONE);
      expect(again.changed).toBe(false);
      expect(await organizations(db)).toEqual(before);
    });

    it('a dry run reports what would change and changes nothing', async () => {
      const dry = await importer().run(EXTRACT, { dryRun: true });

      expect(dry.counts).toEqual({ ...NONE, sirensAdded: 5, siretsAdded: 8 });
      expect(dry.dryRun).toBe(true);
      expect(dry.changed).toBe(false);
      expect(await organizations(db)).toEqual([]);

      await importer().run(EXTRACT, { dryRun: false });
      const units = await edited('StockUniteLegale.csv', (line) => line.replace('ASSOCIATION LES GENETS', 'ASSOCIATION LES GENETS ET LES LILAS'));
      const before = await organizations(db);
      const renaming = await importer().run({ ...EXTRACT, units }, { dryRun: true });
      // The SIREN and its establishment named after it.
      expect(renaming.counts).toEqual({ ...NONE, sirensRenamed: 1, siretsRenamed: 1 });
      expect(await organizations(db)).toEqual(before);
    });

    it('updates names, closes and reopens establishments, and marks a SIREN that leaves the members non-member with its SIRETs, deleting nothing', async () => {
      await importer().run(EXTRACT, { dryRun: false });
      const units = await edited('StockUniteLegale.csv', (line) => line.replace('CLINIQUE SAINT-LUC', 'CLINIQUE SAINT-LUC LILLE METROPOLE'));
      const establishments = await edited('StockEtablissement.csv', (line) =>
        // The open SIRET of Saint-Luc closes; the closed one of the Val reopens.
        line.startsWith('775123987,00015,') ? line.replace(',A,', ',F,') : line.startsWith('442198750,00014,') ? line.replace(',F,', ',A,') : line,
      );

      const result = await importer().run({ units, establishments, members: fixture('membres-sans-genets.txt') }, { dryRun: false });

      expect(result.counts).toEqual({ ...NONE, sirensRenamed: 1, siretsRenamed: 1, sirensNoLongerMembers: 1, siretsClosed: 1, siretsReopened: 1 });
      expect(await nameOf(db, '775123987')).toMatchObject({ name: 'CLINIQUE SAINT-LUC LILLE METROPOLE', member: true });
      expect(await nameOf(db, '77512398700015')).toMatchObject({ name: 'CLINIQUE SAINT-LUC LILLE METROPOLE - LILLE', closed: true });
      expect(await nameOf(db, '44219875000014')).toMatchObject({ closed: false });
      const genets = (await organizations(db)).filter((o) => o.code.startsWith(GENETS));
      expect(genets.map((o) => [o.code, o.member, o.closed])).toEqual([
        [GENETS, false, false],
        ['78241653100013', false, false],
        ['78241653100021', false, false],
        ['78241653100039', false, true],
      ]);

      // Back in the members' file: member again, with its SIRETs.
      const back = await importer().run({ units, establishments, members: fixture('membres.csv') }, { dryRun: false });
      expect(back.counts).toEqual({ ...NONE, sirensBackToMembers: 1 });
      expect((await organizations(db)).filter((o) => o.code.startsWith(GENETS)).every((o) => o.member)).toBe(true);
    });

    it("refuses an establishment of a member whose legal unit is missing from the units' file, naming its line", async () => {
      const units = await edited('StockUniteLegale.csv', (l) => (l.startsWith('812345676,') ? '' : l));

      const failure = await importer().run({ ...EXTRACT, units }, { dryRun: false }).catch((error: unknown) => error);

      expect(failure).toBeInstanceOf(SireneFileError);
      expect((failure as Error).message).toBe(
        'StockEtablissement.csv, ligne 6 : le siret 81234567600017 appartient au SIREN membre 812345676, absent du fichier des unités légales (StockUniteLegale.csv)',
      );
      expect(await organizations(db)).toEqual([]);
    });
  });

  // Files that stop the import change nothing: one migrated database serves them all (a database migrated for each
  // took 3 s on PGlite).
  describe('on one migrated database, files that stop the import', () => {
    const migrated = migratedTestDatabase(backend);
    beforeAll(() => {
      db = migrated();
    });

    const malformed: [string, keyof SireneFiles, string, (line: string, n: number) => string, number, RegExp][] = [
      ['a SIRET of 13 digits', 'establishments', 'StockEtablissement.csv', (l, n) => (n === 3 ? l.replace('78241653100021', '7824165310002') : l), 3, /siret invalide « 7824165310002 »/],
      ['a SIREN of 8 digits', 'units', 'StockUniteLegale.csv', (l, n) => (n === 4 ? l.replace(/^812345676/, '81234567') : l), 4, /siren invalide « 81234567 »/],
      ['a row with a missing column', 'establishments', 'StockEtablissement.csv', (l, n) => (n === 6 ? l.replace(/,$/, '') : l), 6, /colonnes/],
      ['an unknown administrative state', 'establishments', 'StockEtablissement.csv', (l, n) => (n === 9 ? l.replace(',A,', ',X,') : l), 9, /etatAdministratifEtablissement inconnu « X »/],
      ['an unknown state of a legal unit', 'units', 'StockUniteLegale.csv', (l, n) => (n === 2 ? l.replace(',A,', ',Z,') : l), 2, /etatAdministratifUniteLegale inconnu « Z »/],
      ['a SIRET that does not start with its SIREN', 'establishments', 'StockEtablissement.csv', (l, n) => (n === 6 ? l.replace('81234567600017', '81234567700017') : l), 6, /ne commence pas par son siren/],
      ['an unclosed quote', 'establishments', 'StockEtablissement.csv', (l, n) => (n === 8 ? l.replace('SAINT-LUC', '"SAINT-LUC') : l), 8, /guillemet ouvert et jamais fermé/],
      ['a SIRET given twice', 'establishments', 'StockEtablissement.csv', (l, n) => (n === 9 ? l.replace(/^775123987,00023,77512398700023/, '775123987,00015,77512398700015') : l), 9, /siret 77512398700015 en double \(déjà ligne 8\)/],
      ['a header without siret', 'establishments', 'StockEtablissement.csv', (l, n) => (n === 1 ? l.replace(',siret,', ',siretX,') : l), 1, /colonne\(s\) absente\(s\) de l'en-tête : siret/],
      ['a bad SIREN in the members file', 'members', 'membres.csv', (l, n) => (n === 3 ? l.replace('812345676', '81234567A') : l), 3, /SIREN invalide « 81234567A »/],
    ];

    it.each(malformed)('stops on %s with the file and the line, and applies nothing', async (_what, key, name, edit, line, reason) => {
      await importer().run(EXTRACT, { dryRun: false });
      // A change that the good rows would apply (renaming), so that a half-applied import would show.
      const units = await edited('StockUniteLegale.csv', (l) => l.replace('CLINIQUE SAINT-LUC', 'CLINIQUE SAINT-LUC RENOMMEE'));
      const files = { ...EXTRACT, units, [key]: key === 'units' ? await edited(name, (l, n) => edit(l.replace('CLINIQUE SAINT-LUC', 'CLINIQUE SAINT-LUC RENOMMEE'), n)) : await edited(name, edit) };
      const before = await organizations(db);

      const failure = await importer().run(files, { dryRun: false }).catch((error: unknown) => error);

      expect(failure).toBeInstanceOf(SireneFileError);
      const error = failure as SireneFileError;
      expect(error.file).toBe(name);
      expect(error.line).toBe(line);
      expect(error.message).toMatch(new RegExp(`^${name.replace('.', '\\.')}, ligne ${line} : `));
      expect(error.message).toMatch(reason);
      expect(await organizations(db)).toEqual(before);
    });

  });

  describe('on the demo data', () => {
    beforeAll(async () => {
      db = await createSeededTestDatabase(backend);
    }, 60_000);
    afterAll(async () => {
      await db?.dispose();
    });

    it('keeps the demo organizations, their users and roles, as non-members when the members file leaves them out', async () => {
      const demo = await db.handle.db.selectFrom('organizations').select(['id', 'code', 'name']).orderBy('code').execute();
      const assignments = await db.handle.db.selectFrom('role_assignments').selectAll().orderBy('id').execute();
      expect((await organizations(db)).every((o) => o.member && !o.closed && o.updated_at === null)).toBe(true);

      const result = await importer().run(EXTRACT, { dryRun: false });

      const demoSirens = demo.filter((o) => o.code.length === 9).length;
      expect(result.counts).toEqual({ ...NONE, sirensAdded: 5, siretsAdded: 8, sirensNoLongerMembers: demoSirens });
      const after = await db.handle.db.selectFrom('organizations').select(['id', 'code', 'name', 'member']).orderBy('code').execute();
      const kept = after.filter((o) => demo.some((d) => d.id === o.id));
      expect(kept.map(({ id, code, name }) => ({ id, code, name }))).toEqual(demo);
      expect(kept.every((o) => !o.member)).toBe(true);
      expect(await db.handle.db.selectFrom('role_assignments').selectAll().orderBy('id').execute()).toEqual(assignments);
    });
  });
});
