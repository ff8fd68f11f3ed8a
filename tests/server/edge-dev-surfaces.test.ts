// Development-only surfaces fail closed (issue 19): the local mailbox never exists in production; the demo data
// (a published password) is refused in production unless on a loopback origin, and with the local provider on
// any other origin unless ALLOW_DEMO_DATA_ON_PUBLIC_ORIGIN=true; the start says why.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackOrigin, readConfig, readDemoData } from '../../server/config.ts';
import { backends } from './db/test-databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A production start with the local provider allowed (as the benchmarks run it), on `origin`. */
const productionEnv = (origin: string) => ({
  NODE_ENV: 'production',
  PUBLIC_ORIGIN: origin,
  TLS: 'off',
  IDENTITY_PROVIDER: 'local',
  ALLOW_LOCAL_IDENTITY_PROVIDER: 'true',
  MEMBER_AREA_URL: 'https://adherent.example.fr/',
  SUPPORT_HOURS: 'de 9 h à 17 h',
  SUPPORT_PHONE: '01 99 00 12 34',
  SUPPORT_EMAIL: 'relation.adherents@example.fr',
});

const demoData = (env: Record<string, string>) => readDemoData(readConfig(env), env);

describe('the demo data at start', () => {
  it('knows loopback origins: localhost, 127.0.0.0/8 and ::1, nothing else', () => {
    for (const origin of ['https://localhost:8443', 'http://127.0.0.1:8080', 'http://127.42.0.9', 'http://127.1:80', 'https://[::1]:8443']) expect(isLoopbackOrigin(origin), origin).toBe(true);
    for (const origin of ['https://portail.example.fr', 'https://localhost.example.fr', 'http://10.0.0.1', 'http://[::2]', 'http://128.0.0.1', 'https://127.0.0.1.nip.io']) expect(isLoopbackOrigin(origin), origin).toBe(false);
  });

  it('loads with the local provider in development on a loopback origin, as before', () => {
    expect(demoData({})).toBe(true);
    expect(demoData({ PUBLIC_ORIGIN: 'http://127.0.0.1:9000' })).toBe(true);
    expect(demoData({ SEED_DEMO_DATA: 'false' })).toBe(false);
  });

  it('refuses the local provider with the demo data on a public origin when NODE_ENV is unset, unless the development flag is set', () => {
    expect(() => demoData({ PUBLIC_ORIGIN: 'https://portail.example.fr' })).toThrowError(
      /^The local identity provider refuses to start with the demo data: .*PUBLIC_ORIGIN \(https:\/\/portail\.example\.fr\) is not a loopback address.*SEED_DEMO_DATA=false.*ALLOW_DEMO_DATA_ON_PUBLIC_ORIGIN=true/,
    );
    expect(demoData({ PUBLIC_ORIGIN: 'https://portail.example.fr', ALLOW_DEMO_DATA_ON_PUBLIC_ORIGIN: 'true' })).toBe(true);
    expect(demoData({ PUBLIC_ORIGIN: 'https://portail.example.fr', SEED_DEMO_DATA: 'false' })).toBe(false);
  });

  it('refuses SEED_DEMO_DATA=true in production unless the origin is a loopback address, whatever the development flag', () => {
    expect(demoData(productionEnv('https://habilitations.example.fr'))).toBe(false);
    expect(() => demoData({ ...productionEnv('https://habilitations.example.fr'), SEED_DEMO_DATA: 'true' })).toThrowError(/^SEED_DEMO_DATA=true is refused in production: /);
    expect(() => demoData({ ...productionEnv('https://habilitations.example.fr'), SEED_DEMO_DATA: 'true', ALLOW_DEMO_DATA_ON_PUBLIC_ORIGIN: 'true' })).toThrowError(/refused in production/);
    // The benchmarks and the resilience tests: production on 127.0.0.1 with the demo data.
    expect(demoData({ ...productionEnv('http://127.0.0.1:8080'), SEED_DEMO_DATA: 'true' })).toBe(true);
  });

  it('refuses a SEED_DEMO_DATA that is neither true nor false', () => {
    expect(() => demoData({ SEED_DEMO_DATA: 'oui' })).toThrowError("SEED_DEMO_DATA must be true or false (got 'oui')");
  });

  it('stops the start of the server with that message (exit code 1)', async () => {
    const run = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      let output = '';
      const child = spawn(process.execPath, ['server/main.ts'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', PUBLIC_ORIGIN: 'https://portail.example.fr', DATA_DIR: path.join(ROOT, '.data-never-created'), LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.stdout.on('data', (chunk) => (output += String(chunk)));
      child.stderr.on('data', (chunk) => (output += String(chunk)));
      child.once('error', reject);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
    });
    expect(run.code).toBe(1);
    expect(run.output).toContain('The local identity provider refuses to start with the demo data');
  });
});

describe('the local mailbox in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(backends[0]!, { env: productionEnv('https://localhost:8443') });
  });
  afterAll(() => t?.close());

  it('is not mounted, even with ALLOW_LOCAL_IDENTITY_PROVIDER=true, nor linked from the sign-in page', async () => {
    // An e-mail in the outbox that the mailbox would show.
    await t.database.handle.db
      .insertInto('outbox')
      .values({ recipient: 'nouvel.admin@exemple.fr', subject: 'Votre compte', body: 'https://localhost:8443/oidc/account/setup?token=secret-link', kind: 'account.invitation', sent_at: null, last_error: null })
      .execute();
    for (const url of ['/oidc/dev/mailbox', '/oidc/dev/mailbox?to=nouvel.admin@exemple.fr']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).not.toBe(200);
      expect(page.body).not.toContain('secret-link');
      expect(page.body).not.toContain("Boîte d'envoi locale");
    }
    const { signInPage } = await import('../../server/dev-idp/pages.ts');
    expect(signInPage({ uid: 'u', email: '', error: null, demoAccounts: [], mailbox: false })).not.toContain('/oidc/dev/mailbox');
  });
});
