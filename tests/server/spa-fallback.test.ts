import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { openDatabase, type DatabaseHandle } from '../../server/db/database.ts';
import { loadSigningKeys } from '../../server/dev-idp/signing-keys.ts';
import { verifierFor } from '../../server/identity/token-verifier.ts';

describe('serving the SPA', () => {
  let app: FastifyInstance;
  let database: DatabaseHandle;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-web-'));
    const webRoot = path.join(dir, 'dist');
    fs.mkdirSync(path.join(webRoot, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>SPA</title>');
    fs.writeFileSync(path.join(webRoot, 'assets', 'main-abc.js'), 'console.log(1)');
    // What scripts/precompress.ts writes beside an asset (here with distinct contents, to tell them apart).
    fs.writeFileSync(path.join(webRoot, 'assets', 'big-abc.js'), 'plain');
    fs.writeFileSync(path.join(webRoot, 'assets', 'big-abc.js.br'), 'brotli');
    fs.writeFileSync(path.join(webRoot, 'assets', 'big-abc.js.gz'), 'gzip');
    const config = readConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', WEB_ROOT: webRoot });
    // No query reaches the database here: an unmigrated in-memory one is enough.
    database = await openDatabase({});
    const keys = await loadSigningKeys(dir);
    app = await buildApp({ config, database, verifyToken: await verifierFor(config.auth, keys.publicJwks), signingKeys: keys, tls: null });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, accept = 'text/html,application/xhtml+xml') => app.inject({ method: 'GET', url, headers: { accept } });

  it('answers any page path with the SPA, which draws its own 404 page', async () => {
    for (const url of ['/', '/dashboard', '/une/page/inconnue']) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.body).toContain('<title>SPA</title>');
      expect(answer.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves built assets as immutable', async () => {
    const answer = await get('/assets/main-abc.js', '*/*');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toContain('immutable');
  });

  it('sends the precompressed file the browser accepts, brotli first, else the file itself', async () => {
    const send = (encoding?: string) => app.inject({ method: 'GET', url: '/assets/big-abc.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const brotli = await send('gzip, deflate, br');
    expect([brotli.headers['content-encoding'], brotli.body, brotli.headers['content-type']]).toEqual(['br', 'brotli', 'application/javascript; charset=utf-8']);
    expect(brotli.headers.vary).toContain('accept-encoding');
    expect(brotli.headers['cache-control']).toContain('immutable');
    const gzip = await send('gzip');
    expect([gzip.headers['content-encoding'], gzip.body]).toEqual(['gzip', 'gzip']);
    const plain = await send();
    expect([plain.headers['content-encoding'], plain.body]).toEqual([undefined, 'plain']);
  });

  it('answers a missing asset with 404, not the SPA', async () => {
    const answer = await get('/assets/main-gone.js', '*/*');
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-type']).toContain('application/json');
  });

  it('answers an unknown API or provider path with a JSON 404, not the SPA', async () => {
    for (const url of ['/api/v3/anything', '/oidc/interaction/']) {
      const answer = await get(url);
      expect(answer.body, url).not.toContain('<title>SPA</title>');
    }
  });
});
