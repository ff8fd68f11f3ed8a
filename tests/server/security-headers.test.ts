// The headers of every kind of answer (issue 9, hardening): a content policy without inline scripts, no
// framing (but the redirect bridge, by the portal itself), HSTS, nosniff, a referrer policy; and CORS for the
// API from the portal's own origin only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config.ts';
import { HSTS_MAX_AGE_SECONDS, securityHeadersFor } from '../../server/plugins/security-headers.ts';
import { openSignInForm } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { PERSONAS } from './support/users-api.ts';

type Headers = Record<string, string | string[] | number | undefined>;

/** The content policy's directives: name → sources. */
function directives(headers: Headers): Map<string, string[]> {
  const csp = String(headers['content-security-policy'] ?? '');
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...sources]) => [name!, sources]));
}

function expectHardened(headers: Headers, framing: 'none' | 'self' = 'none') {
  const csp = directives(headers);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual([`'${framing}'`]);
  expect(headers['x-frame-options']).toBe(framing === 'none' ? 'DENY' : 'SAMEORIGIN');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(Number(/^max-age=(\d+)$/.exec(String(headers['strict-transport-security']))?.[1])).toBeGreaterThanOrEqual(365 * 24 * 3600);
  expect(headers['permissions-policy']).toContain('camera=()');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
}

// Headers do not depend on the database: PGlite only.
describe('security headers and CORS', () => {
  let t: TestApp, dir: string, token: string;
  const ORIGIN = 'https://localhost:8443';
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-headers-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>SPA</title>');
    fs.writeFileSync(path.join(dir, 'redirect.html'), '<!doctype html><title>Connexion</title>');
    t = await startTestApp({ name: 'pglite' }, { env: { WEB_ROOT: dir } });
    token = await t.tokenFor(PERSONAS.backoffice);
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });

  it('hardens the SPA page, its assets and the health check, none of them framable', async () => {
    for (const url of ['/', '/utilisateurs', '/healthz']) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(200);
      expectHardened(answer.headers);
    }
  });

  it('hardens an API answer and API errors (401, 404)', async () => {
    const ok = await get('/api/v2/users/me', { authorization: `Bearer ${token}` });
    expect(ok.statusCode).toBe(200);
    expectHardened(ok.headers);
    for (const [url, status] of [['/api/v2/users', 401], ['/api/v2/nothing-here', 404]] as const) {
      const answer = await get(url, url.endsWith('here') ? { authorization: `Bearer ${token}` } : {});
      expect(answer.statusCode).toBe(status);
      expectHardened(answer.headers);
      expect(answer.json().requestId).toBe(answer.headers['x-request-id']);
    }
  });

  it("hardens the provider's sign-in page and the pages the provider renders itself", async () => {
    const form = await openSignInForm(t);
    const page = await form.page();
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Se connecter');
    expectHardened(page.headers);
    const discovery = await get('/oidc/.well-known/openid-configuration');
    expect(discovery.statusCode).toBe(200);
    expectHardened(discovery.headers);
    const failed = await form.post(PERSONAS.lecteur, 'pas-le-bon');
    expect(failed.statusCode).toBe(401);
    expectHardened(failed.headers);
  });

  it("lets the portal alone frame MSAL's redirect bridge, for silent renewals", async () => {
    const bridge = await get('/redirect.html');
    expect(bridge.statusCode).toBe(200);
    expectHardened(bridge.headers, 'self');
    // The authorize endpoint only redirects to it: it stays unframable.
    expectHardened((await get('/oidc/auth?client_id=x')).headers);
  });

  it('sends HSTS only when the portal is reached over https', () => {
    const names = (origin: string) => securityHeadersFor(readConfig({ PUBLIC_ORIGIN: origin })).for('/').map(([name]) => name);
    expect(names('http://localhost:8080')).not.toContain('strict-transport-security');
    expect(securityHeadersFor(readConfig({})).for('/')).toContainEqual(['strict-transport-security', `max-age=${HSTS_MAX_AGE_SECONDS}`]);
  });

  const preflight = (url: string, origin: string) =>
    t.app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization, content-type, if-match' } });

  it("answers the API's preflight from the portal's origin, with the methods and headers the API uses", async () => {
    const answer = await preflight('/api/v2/users/00000000-0000-4000-8000-000000000000', ORIGIN);
    expect(answer.statusCode).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(String(answer.headers['access-control-allow-methods']).split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']));
    expect(String(answer.headers['access-control-allow-headers']).split(/,\s*/)).toEqual(expect.arrayContaining(['authorization', 'content-type', 'if-match']));
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('gives another origin no CORS header, on a preflight or on a call', async () => {
    for (const origin of ['https://attacker.example', 'https://localhost:8444', 'null']) {
      const answer = await preflight('/api/v2/users', origin);
      expect(answer.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(answer.headers['access-control-allow-methods'], origin).toBeUndefined();
      expect(answer.statusCode, origin).toBe(404);
      const call = await get('/api/v2/users/me', { origin, authorization: `Bearer ${token}` });
      expect(call.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
    const own = await get('/api/v2/users/me', { origin: ORIGIN, authorization: `Bearer ${token}` });
    expect(own.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(String(own.headers['access-control-expose-headers'])).toContain('x-request-id');
  });

  it('keeps CORS to the API: the SPA and the health check get no CORS header, nor a Vary on the origin', async () => {
    for (const url of ['/', '/healthz', '/portal-config.json']) {
      const answer = await get(url, { origin: ORIGIN });
      expect(answer.headers['access-control-allow-origin'], url).toBeUndefined();
      expect(String(answer.headers.vary ?? ''), url).not.toMatch(/origin/i);
    }
    expect((await preflight('/healthz', ORIGIN)).headers['access-control-allow-origin']).toBeUndefined();
  });
});
