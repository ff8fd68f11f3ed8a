// The API's rate limit (issue 9, hardening): per person (the verified token's subject), per client address
// without a valid token; 429 with Retry-After and the error body beyond it; only under /api/. Here 5 a minute
// (API_RATE_LIMIT_PER_MINUTE=5) to reach it in a few calls; the minute is moved with a fake clock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readConfig } from '../../server/config.ts';
import { registerApiRateLimit, tooManyRequestsMessage } from '../../server/plugins/rate-limit.ts';
import { serverEnv } from '../../bench/server-env.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { PERSONAS } from './support/users-api.ts';

const LIMIT = 5;

// The answers on PGlite; the counts' storage on both databases in db/rate-limit-hits.test.ts, and across two server processes in concurrency.test.ts.
describe('the API rate limit', () => {
  let t: TestApp, dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-rate-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>SPA</title>');
    fs.writeFileSync(path.join(dir, 'assets', 'main-abc.js'), 'console.log(1)');
    t = await startTestApp({ name: 'pglite' }, { env: { API_RATE_LIMIT_PER_MINUTE: String(LIMIT), WEB_ROOT: dir } });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => vi.useRealTimers());

  const asUser = async (email: string, url = '/api/v2/users/me') => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${await t.tokenFor(email)}` } });
  const statuses = async (count: number, call: () => Promise<{ statusCode: number }>) => {
    const seen: number[] = [];
    for (let i = 0; i < count; i += 1) seen.push((await call()).statusCode);
    return seen;
  };

  it('answers 429 with Retry-After and the error body past the limit, in French', async () => {
    expect(await statuses(LIMIT, () => asUser(PERSONAS.backoffice))).toEqual(Array(LIMIT).fill(200));
    const refused = await asUser(PERSONAS.backoffice, '/api/v2/users');
    expect(refused.statusCode).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.json()).toEqual({ error: 'TooManyRequests', message: tooManyRequestsMessage(wait), requestId: refused.headers['x-request-id'] });
    expect(tooManyRequestsMessage(wait)).toMatch(/^Trop de requêtes\. Réessayez dans \d+ secondes?\.$/);
    expect(tooManyRequestsMessage(1)).toBe('Trop de requêtes. Réessayez dans 1 seconde.');
  });

  it('counts each person apart: another one is served while the first waits', async () => {
    await statuses(LIMIT + 1, () => asUser(PERSONAS.lecteur));
    expect((await asUser(PERSONAS.lecteur)).statusCode).toBe(429);
    expect((await asUser(PERSONAS.adminClinique)).statusCode).toBe(200);
  });

  it('counts requests without a valid token by client address, and never on the person a forged token names', async () => {
    const anonymous = (remoteAddress: string, authorization?: string) =>
      t.app.inject({ method: 'GET', url: '/api/v2/roles', remoteAddress, headers: authorization ? { authorization } : {} });
    expect(await statuses(LIMIT + 1, () => anonymous('192.0.2.10'))).toEqual([...Array(LIMIT).fill(401), 429]);
    expect((await anonymous('192.0.2.11')).statusCode).toBe(401);
    // Tokens naming the regional administrator, their signature broken: the sender's address is throttled, not the person.
    const forged = `${(await t.tokenFor(PERSONAS.adminEhpad)).slice(0, -4)}AAAA`;
    expect(await statuses(LIMIT + 1, () => anonymous('192.0.2.12', `Bearer ${forged}`))).toEqual([...Array(LIMIT).fill(401), 429]);
    expect((await asUser(PERSONAS.adminEhpad)).statusCode).toBe(200);
  });

  it('leaves the SPA, its assets, the health checks and the provider out of the count', async () => {
    for (const url of ['/', '/assets/main-abc.js', '/healthz', '/readyz', '/portal-config.json', '/oidc/.well-known/openid-configuration']) {
      const seen = await statuses(LIMIT * 2, () => t.app.inject({ method: 'GET', url, remoteAddress: '192.0.2.20', headers: { accept: 'text/html' } }));
      expect(seen, url).toEqual(Array(LIMIT * 2).fill(200));
    }
    // The same address still has its whole allowance on the API.
    expect(await statuses(LIMIT, () => t.app.inject({ method: 'GET', url: '/api/v2/openapi.json', remoteAddress: '192.0.2.20' }))).toEqual(Array(LIMIT).fill(200));
  });

  it('serves the person again once the minute is over', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    await statuses(LIMIT, () => asUser(PERSONAS.rhClinique));
    expect((await asUser(PERSONAS.rhClinique)).statusCode).toBe(429);
    vi.setSystemTime(Date.now() + 59_000);
    expect((await asUser(PERSONAS.rhClinique)).statusCode).toBe(429);
    vi.setSystemTime(Date.now() + 1_000);
    expect((await asUser(PERSONAS.rhClinique)).statusCode).toBe(200);
  });
});

describe('API_RATE_LIMIT_PER_MINUTE', () => {
  it('is 600 by default, 0 to turn the limit off, and refuses anything but a whole number', () => {
    expect(readConfig({}).apiRateLimitPerMinute).toBe(600);
    expect(readConfig({ API_RATE_LIMIT_PER_MINUTE: '0' }).apiRateLimitPerMinute).toBe(0);
    for (const value of ['-1', '2.5', 'beaucoup']) {
      expect(() => readConfig({ API_RATE_LIMIT_PER_MINUTE: value })).toThrowError(`API_RATE_LIMIT_PER_MINUTE must be a whole number, 0 for no limit (got '${value}')`);
    }
  });

  it('is off for the benchmark, which makes thousands of calls a minute per person', () => {
    const env = serverEnv({ databaseUrl: 'postgres://bench@db/bench', port: 9, dataDir: '/tmp/bench', poolSize: 4 });
    expect(readConfig(env).apiRateLimitPerMinute).toBe(0);
  });

  it('at 0, counts nothing', async () => {
    const app = Fastify();
    const noCount = () => Promise.reject(new Error('no count expected'));
    const hits = { hit: noCount, restart: noCount, extend: noCount, read: noCount, clear: noCount, purgeExpired: noCount };
    await registerApiRateLimit(app, { perMinute: 0, verifyToken: () => Promise.reject(new Error('no token expected')), hits });
    app.get('/api/v2/ping', async () => ({ ok: true }));
    const seen = await Promise.all(Array.from({ length: 50 }, () => app.inject({ method: 'GET', url: '/api/v2/ping' })));
    expect(seen.every((answer) => answer.statusCode === 200 && answer.headers['retry-after'] === undefined)).toBe(true);
    await app.close();
  });
});

describe('TRUST_PROXY', () => {
  it('believes no proxy by default, and reads a number of hops or addresses and CIDRs', () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(readConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' }).trustProxy).toEqual(['10.0.0.0/8', '192.0.2.1']);
    expect(() => readConfig({ TRUST_PROXY: 'le répartiteur' })).toThrowError(/TRUST_PROXY must be a number of hops/);
  });

  it("behind the configured proxy, counts each client by its forwarded address; otherwise by the proxy's", async () => {
    const anonymous = (app: TestApp['app'], client: string) =>
      app.inject({ method: 'GET', url: '/api/v2/roles', remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': client } });
    const behind = await startTestApp({ name: 'pglite' }, { env: { API_RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: '10.0.0.0/8' } });
    const direct = await startTestApp({ name: 'pglite' }, { env: { API_RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
    try {
      expect(await statusesOf(LIMIT + 1, () => anonymous(behind.app, '198.51.100.1'))).toEqual([...Array(LIMIT).fill(401), 429]);
      expect((await anonymous(behind.app, '198.51.100.2')).statusCode).toBe(401);
      // Without TRUST_PROXY every client is the balancer: the second client shares the first one's count.
      expect(await statusesOf(LIMIT + 1, () => anonymous(direct.app, '198.51.100.1'))).toEqual([...Array(LIMIT).fill(401), 429]);
      expect((await anonymous(direct.app, '198.51.100.2')).statusCode).toBe(429);
    } finally {
      await behind.close();
      await direct.close();
    }
  });
});

async function statusesOf(count: number, call: () => Promise<{ statusCode: number }>): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i += 1) seen.push((await call()).statusCode);
  return seen;
}
