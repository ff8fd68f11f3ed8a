// GET /metrics (Prometheus, prom-client): only for the bearer of METRICS_TOKEN; what an operator watches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { openSignInForm } from './support/sign-in.ts';
import { readConfig } from '../../server/config.ts';
import { DEMO_PASSWORD } from '../../server/seed/seed.ts';
import { PERSONAS } from './support/users-api.ts';

const TOKEN = 'metrics-token-for-the-tests-0123456789abcdef';

/** The value of one series of the Prometheus text, e.g. sample(text, 'x_total', { route: '/a' }); undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[4]);
  }
  return undefined;
}

for (const backend of backends) {
  describe(`GET /metrics on ${backend.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(backend, { env: { METRICS_TOKEN: TOKEN } });
    });
    afterAll(() => t?.close());
    const scrape = async () => {
      const answer = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return answer.body;
    };

    it('refuses a scrape without the token, or with another one, and says nothing else', async () => {
      for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
        const answer = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
        expect(answer.statusCode, String(authorization)).toBe(401);
        expect(answer.headers['www-authenticate']).toBe('Bearer realm="metrics"');
        expect(answer.body).not.toContain('nodejs_');
      }
    });

    it("reports the runtime's version, Node.js 24 or newer, and the event loop's lag", async () => {
      const text = await scrape();
      const major = Number(/nodejs_version_info\{[^}]*version="v(\d+)\./.exec(text)?.[1]);
      expect(major).toBeGreaterThanOrEqual(24);
      expect(sample(text, 'portail_build_info', { node: process.version })).toBe(1);
      expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    });

    it('counts answers by route pattern (never the raw URL) and status, with their durations, 5xx and 429 apart', async () => {
      const before = await scrape();
      const route = { method: 'GET', route: '/api/v2/users/:id', status_code: '401' };
      const count = (text: string) => sample(text, 'portail_http_requests_total', route) ?? 0;
      const id = '6ba7b810-9dad-41d1-80b4-00c04fd430c8';
      await t.app.inject({ method: 'GET', url: `/api/v2/users/${id}` });
      await t.app.inject({ method: 'GET', url: `/api/v2/users/${id}?x=1` });
      const after = await scrape();
      expect(count(after) - count(before)).toBe(2);
      expect(after).not.toContain(id);
      expect(sample(after, 'portail_http_request_duration_seconds_count', route)).toBe(count(after));
      expect(sample(after, 'portail_token_rejections_total', { reason: 'missing' })).toBeGreaterThanOrEqual(2);
      expect(sample(after, 'portail_http_server_errors_total')).toBeUndefined();
      await t.app.inject({ method: 'GET', url: '/nowhere/at/all' });
      expect(sample(await scrape(), 'portail_http_requests_total', { route: 'unmatched', status_code: '404' })).toBeGreaterThanOrEqual(1);
    });

    it('counts invalid tokens and refused sign-ins', async () => {
      const before = await scrape();
      await t.app.inject({ method: 'GET', url: '/api/v2/users/me', headers: { authorization: 'Bearer not.a.token' } });
      const form = await openSignInForm(t, '203.0.113.77');
      expect((await form.post(PERSONAS.backoffice, 'not-the-password')).statusCode).toBe(401);
      const after = await scrape();
      const delta = (name: string, labels: Record<string, string>) => (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
      expect(delta('portail_token_rejections_total', { reason: 'invalid' })).toBe(1);
      expect(delta('portail_sign_in_failures_total', { reason: 'credentials' })).toBe(1);
      expect((await form.post(PERSONAS.backoffice, DEMO_PASSWORD)).statusCode).toBe(303);
    });

    it('reports the outbox: pending and failed e-mails', async () => {
      const db = t.database.handle.db;
      const counts = async () => {
        const text = await scrape();
        return { pending: sample(text, 'portail_outbox_messages', { status: 'pending' }), failed: sample(text, 'portail_outbox_messages', { status: 'failed' }) };
      };
      const before = await counts();
      await db.insertInto('outbox').values({ kind: 'account.invitation', recipient: 'a@example.org', subject: 's', body: 'b' }).execute();
      await db.insertInto('outbox').values({ kind: 'account.invitation', recipient: 'b@example.org', subject: 's', body: 'b', status: 'FAILED' }).execute();
      const after = await counts();
      expect(after.pending).toBe(before.pending! + 1);
      expect(after.failed).toBe(before.failed! + 1);
    });

    it('counts the scheduled jobs’ runs by job and outcome, with their durations', async () => {
      const before = sample(await scrape(), 'portail_job_runs_total', { job: 'outbox.retention', outcome: 'succeeded' }) ?? 0;
      const events = await t.app.jobs.tick();
      expect(events.map((e) => [e.job, e.outcome])).toContainEqual(['outbox.retention', 'succeeded']);
      const after = await scrape();
      expect(sample(after, 'portail_job_runs_total', { job: 'outbox.retention', outcome: 'succeeded' })).toBe(before + 1);
      expect(sample(after, 'portail_job_run_duration_seconds_count', { job: 'outbox.retention' })).toBeGreaterThanOrEqual(1);
    });

    it(`reports the database pool ${backend.name === 'postgres' ? 'in use and waiting' : '(none on PGlite)'}`, async () => {
      const text = await scrape();
      if (backend.name === 'postgres') {
        expect(sample(text, 'portail_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
        expect(sample(text, 'portail_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
        expect(sample(text, 'portail_db_pool_waiting_requests')).toBe(0);
      } else {
        expect(sample(text, 'portail_db_pool_connections')).toBeUndefined();
      }
    });
  });
}

describe('GET /metrics without METRICS_TOKEN', () => {
  it('does not exist', async () => {
    const t = await startTestApp(backends[0]!);
    try {
      const answer = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(answer.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('refuses a short or spaced METRICS_TOKEN at start', () => {
    expect(() => readConfig({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be at least 32 printable characters');
    expect(() => readConfig({ METRICS_TOKEN: `${'a'.repeat(20)} ${'b'.repeat(20)}` })).toThrow('METRICS_TOKEN');
    expect(readConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
  });
});
