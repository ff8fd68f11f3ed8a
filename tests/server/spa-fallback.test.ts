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
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><html><head><title>SPA</title></head><body></body></html>');
    fs.writeFileSync(path.join(webRoot, 'assets', 'main-abc.js'), 'console.log(1)');
    // What scripts/precompress.ts writes beside an asset (here with distinct contents, to tell them apart).
    fs.writeFileSync(path.join(webRoot, 'assets', 'big-abc.js'), 'plain');
    fs.writeFileSync(path.join(webRoot, 'assets', 'big-abc.js.br'), 'brotli');
    fs.writeFileSync(path.join(webRoot, 'assets', 'big-abc.js.gz'), 'gzip');
    // A support line with what would end a script element, to prove the page's configuration cannot be broken out of.
    const config = readConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', WEB_ROOT: webRoot, SUPPORT_HOURS: '9h-17h </script><script>alert(1)</script> & <!--' });
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

  it('writes the start-up configuration into every page, as /portal-config.json answers it, and nothing can break out of it (issue 18)', async () => {
    const expected = (await app.inject({ method: 'GET', url: '/portal-config.json' })).json();
    for (const url of ['/', '/index.html', '/utilisateurs?page=2']) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      const match = /<script id="portal-config" type="application\/json">(.*?)<\/script><\/head>/s.exec(answer.body);
      expect(match, url).not.toBeNull();
      expect(match![1]).not.toMatch(/<|>|&/);
      expect(JSON.parse(match![1]!)).toEqual(expected);
      expect(JSON.parse(match![1]!).support.hours).toBe('9h-17h </script><script>alert(1)</script> & <!--');
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
