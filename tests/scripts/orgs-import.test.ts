// npm run orgs:import (scripts/orgs-import.ts): its arguments, and the command itself on a PGlite data folder of its own.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseImportArgs } from '../../scripts/orgs-import-cli.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = path.join(ROOT, 'tests/fixtures/sirene');
const run = promisify(execFile);

describe('orgs:import arguments', () => {
  it('reads the three files and the dry run', () => {
    expect(parseImportArgs(['--units', 'u.csv', '--establishments', 'e.csv', '--members', 'm.csv', '--dry-run'])).toEqual({
      kind: 'import',
      files: { units: 'u.csv', establishments: 'e.csv', members: 'm.csv' },
      dryRun: true,
    });
    expect(parseImportArgs(['--help'])).toEqual({ kind: 'help' });
  });

  it('names the missing options and refuses unknown ones', () => {
    expect(() => parseImportArgs(['--units', 'u.csv'])).toThrow('Option(s) manquante(s) : --establishments, --members. Voir --help.');
    expect(() => parseImportArgs(['--units', 'u.csv', '--establishments', 'e.csv', '--members', 'm.csv', '--dryrun'])).toThrow(/^Arguments invalides : .*--dryrun/);
  });
});

describe('orgs:import command', () => {
  let dataDir: string;
  const importer = (...args: string[]) =>
    run(process.execPath, ['scripts/orgs-import.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, CI: 'true' },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
  const files = (establishments = path.join(FIXTURES, 'StockEtablissement.csv')) => [
    '--units', path.join(FIXTURES, 'StockUniteLegale.csv'), '--establishments', establishments, '--members', path.join(FIXTURES, 'membres.csv'),
  ];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgs-import-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a dry run prints what would change, with its progress on stderr', async () => {
    const { code, stdout, stderr } = await importer(...files(), '--dry-run');

    expect(code).toBe(0);
    expect(stdout).toContain("L'import changerait (simulation, rien n’est modifié) :");
    expect(stdout).toContain('  SIREN ajoutés : 5');
    expect(stdout).toContain('  SIRET ajoutés : 8');
    expect(stderr).toContain('[orgs:import] Établissements : 100 % (9 lignes)');
  }, 60_000);

  it('exits with 1 on a malformed file, naming the file and the line, and applies nothing', async () => {
    const lines = (await readFile(path.join(FIXTURES, 'StockEtablissement.csv'), 'utf8')).split('\n');
    lines[2] = lines[2]!.replace('78241653100021', '7824165310002');
    const broken = path.join(dataDir, 'StockEtablissement.csv');
    await writeFile(broken, lines.join('\n'));

    const failed = await importer(...files(broken));
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("Import refusé, rien n'a été modifié. StockEtablissement.csv, ligne 3 : siret invalide « 7824165310002 » (14 chiffres attendus)");

    // Still nothing there: a dry run on the good files would add everything.
    const { stdout } = await importer(...files(), '--dry-run');
    expect(stdout).toContain('  SIREN ajoutés : 5');
  }, 60_000);
});
