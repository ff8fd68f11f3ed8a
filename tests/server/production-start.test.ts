// A production start (NODE_ENV=production) writes JSON lines only, the start banner and a migration's failure
// included, so that a log collector reads every line; the banner names the runtime, Node.js 24 or newer. A start
// without the server's memory settings (server/runtime.ts) says so before its banner.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './support/server-process.ts';
import { createTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { describeOnPostgres } from '../support/on-postgres.ts';
import { SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from '../../server/runtime.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Run {
  code: number | null;
  stdout: string;
}

/** `node [flags] server/main.ts` in production: until `until` appears in its standard output (then stopped) or it exits. */
function runProduction(env: Record<string, string>, until: string | null, flags: readonly string[] = []): Promise<Run> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    const child = spawn(process.execPath, [...flags, 'server/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        TLS: 'off',
        IDENTITY_PROVIDER: 'local',
        ALLOW_LOCAL_IDENTITY_PROVIDER: 'true',
        MEMBER_AREA_URL: 'https://adherent.example.org/',
        SUPPORT_HOURS: 'de 9 h à 17 h',
        SUPPORT_PHONE: '01 99 00 12 34',
        SUPPORT_EMAIL: 'relation.adherents@example.org',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
      if (until && stdout.includes(until)) child.kill('SIGTERM');
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    });
  });
}

const jsonLines = (text: string) => text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('a production start', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-prod-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('writes its banner as one JSON line of the log, with the Node.js version, and nothing else but JSON', async () => {
    const port = await freePort();
    const run = await runProduction({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_ORIGIN: `http://127.0.0.1:${port}` }, 'Portail Habilitations démarré');
    const lines = jsonLines(run.stdout);
    const banner = lines.find((line) => line.msg === 'Portail Habilitations démarré');
    expect(banner).toMatchObject({ level: 30, publicOrigin: `http://127.0.0.1:${port}`, database: 'pglite', identityProvider: 'local' });
    expect(Number(/^v(\d+)\./.exec(String(banner?.node))?.[1])).toBeGreaterThanOrEqual(24);
    // Started bare, without the memory settings: a warning naming each, before the banner.
    const warning = lines.findIndex((line) => String(line.msg).startsWith('Réglages de mémoire absents'));
    expect(lines[warning]).toMatchObject({
      level: 40,
      missingMemorySettings: ['--max-semi-space-size', '--max-old-space-size', 'MALLOC_ARENA_MAX'],
      msg: expect.stringMatching(/^Réglages de mémoire absents : --max-semi-space-size, --max-old-space-size, MALLOC_ARENA_MAX \(/),
    });
    expect(warning).toBeLessThan(lines.indexOf(banner!));
  });

  it('started with the memory settings, as npm run serve and the image start it, says nothing of memory', async () => {
    const port = await freePort();
    const run = await runProduction({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_ORIGIN: `http://127.0.0.1:${port}`, ...SERVER_ENVIRONMENT }, 'Portail Habilitations démarré', SERVER_NODE_FLAGS);
    const lines = jsonLines(run.stdout);
    expect(lines.some((line) => line.msg === 'Portail Habilitations démarré')).toBe(true);
    expect(lines.filter((line) => 'missingMemorySettings' in line || String(line.msg).includes('mémoire'))).toEqual([]);
  });
});

describeOnPostgres('a production start whose migration fails', () => {
  let database: TestDatabase;
  afterAll(() => database?.dispose());

  it('says so in a JSON line of level fatal, and exits with code 1', async () => {
    database = await createTestDatabase({ name: 'postgres' });
    // A table in the way of the first migration.
    await database.handle.exec('create table organizations (unexpected integer)');
    const port = await freePort();
    const run = await runProduction({ DATABASE_URL: database.url!, PORT: String(port), PUBLIC_ORIGIN: `http://127.0.0.1:${port}` }, null);
    expect(run.code).toBe(1);
    const fatal = jsonLines(run.stdout).find((line) => line.level === 60);
    expect(fatal?.msg).toBe('Échec de la migration de la base');
    expect(JSON.stringify(fatal?.err)).toContain('organizations');
  });
});
