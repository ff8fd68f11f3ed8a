// Issue 9, 'Graceful shutdown': SIGTERM to the server as production runs it (its own process, PostgreSQL)
// while writes and reads are under way. It finishes what it had taken, refuses what comes after, loses no
// acknowledged write, closes its PostgreSQL connections and exits 0; a request that never ends, or a second
// signal, does not keep it running.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../bench/server-process.ts';
import { serverEnv } from '../../bench/server-env.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../server/support/smtp-server.ts';
import { tokensFor } from './support/api.ts';
import { createOwnDatabase, describeOnPostgres, type OwnDatabase } from './support/database.ts';
import { send, type Outcome, type Send } from './support/http.ts';
import { startWatchedServer, type WatchedServer } from './support/server-process.ts';

const BACK_OFFICE = 'backoffice@portail.test';
const REASON = "Refusée pendant l'arrêt du serveur.";
/** server/main.ts's grace period. */
const GRACE_MS = 10_000;

interface Planned extends Send {
  kind: 'update' | 'creation' | 'rejection' | 'read';
  /** The row it changes: a user's id (update), an invitation's (rejection). */
  target?: string;
  /** An update's new job title. */
  title?: string;
  /** The normal answer of this request. */
  expected: (outcome: Outcome) => boolean;
}

const incomingApiRequests = (entries: Record<string, unknown>[]) =>
  entries.filter((e) => e.msg === 'incoming request' && String((e.req as { url?: string } | undefined)?.url).startsWith('/api/')).length;

describeOnPostgres('a SIGTERM to the production server', () => {
  let database: OwnDatabase;
  let dataDir: string;
  let smtp: SmtpTestServer;
  let server: WatchedServer | undefined;
  let token = '';
  // Names the server's PostgreSQL sessions (libpq's PGAPPNAME, read by pg), to find them in pg_stat_activity.
  const applicationName = `portail-shutdown-${process.pid}`;

  const start = async () => {
    const port = await freePort();
    // A pool of 5: the burst queues in it, so that SIGTERM comes while most of it is under way (a smaller one
    // would make some wait over a second for a connection, which answers 503).
    const env = { ...serverEnv({ databaseUrl: database.url, port, dataDir, poolSize: 5 }), SEED_DEMO_DATA: 'true', API_RATE_LIMIT_PER_MINUTE: '0', SMTP_URL: smtp.url, PGAPPNAME: applicationName };
    server = await startWatchedServer(env, port);
    token = (await tokensFor(database, dataDir, server.origin, [BACK_OFFICE])).get(BACK_OFFICE)!;
    return server;
  };

  beforeAll(async () => {
    database = await createOwnDatabase('shutdown');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-shutdown-'));
    smtp = await startSmtpTestServer();
  });

  afterEach(async () => {
    await server?.kill();
    server = undefined;
  });

  afterAll(async () => {
    await database?.drop();
    await smtp?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Updates of 30 users (If-Match), 10 invitations, 5 rejections of pending ones, 15 lists of 100 users. */
  async function burst(): Promise<Planned[]> {
    const users = await database.query<{ id: string; email: string; first_name: string; last_name: string; version: number }>(
      `select id, email, first_name, last_name, version from users where user_type = 'ORGANIZATION' and auth_id is not null order by email limit 30`,
    );
    const [siret] = await database.query<{ code: string }>(`select code from organizations where type = 'SIRET' order by code limit 1`);
    const pending = await database.query<{ id: number }>(`select id::int from invitations where status = 'PENDING' order by id limit 5`);
    if (users.length < 30 || pending.length < 5) throw new Error('the demo data has fewer users or pending invitations than the burst needs');
    const planned: Planned[] = users.map((u, i) => ({
      kind: 'update',
      target: u.id,
      title: `Arret progressif ${i}`,
      method: 'PUT',
      path: `/api/v2/users/${u.id}`,
      token,
      headers: { 'if-match': `"${u.version}"` },
      body: { firstName: u.first_name, lastName: u.last_name, email: u.email, metadata: JSON.stringify({ jobTitle: `Arret progressif ${i}` }) },
      expected: (o) => o.status === 200 && o.body?.user?.jobTitle === `Arret progressif ${i}`,
    }));
    for (let i = 0; i < 10; i++) {
      const body = { inviteeEmail: `arret.${i}@exemple-arret.fr`, roleCode: 'COMPTABLE', invitationType: 'ROLE_ASSIGNMENT', organizationCode: siret!.code };
      planned.push({ kind: 'creation', method: 'POST', path: '/api/v2/invitations', token, body, expected: (o) => o.status === 201 && o.body?.inviteeEmail === body.inviteeEmail });
    }
    for (const { id } of pending) {
      planned.push({ kind: 'rejection', target: String(id), method: 'POST', path: `/api/v2/invitations/${id}/reject`, token, body: { rejectionReason: REASON }, expected: (o) => o.status === 200 && o.body?.status === 'REJECTED' });
    }
    for (let i = 0; i < 15; i++) {
      planned.push({ kind: 'read', method: 'GET', path: `/api/v2/users?page=1&pageSize=100&includeInactive=true&search=e&sort=email`, token, expected: (o) => o.status === 200 && o.body?.items?.length > 0 });
    }
    // Shuffled the same way each run: reads among the writes.
    return planned.map((p, i) => ({ p, k: (i * 37) % planned.length })).sort((a, b) => a.k - b.k).map(({ p }) => p);
  }

  /** New connections until one is refused: then the listener is closed. Answers how many were tried. */
  async function untilRefused(origin: string): Promise<number> {
    for (let tries = 1; ; tries++) {
      const refused = await new Promise<boolean>((resolve) => {
        const socket = net.connect({ host: '127.0.0.1', port: Number(new URL(origin).port) });
        socket.once('connect', () => (socket.destroy(), resolve(false)));
        socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
      });
      if (refused) return tries;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('finishes every request it had taken, refuses new ones, keeps every acknowledged write, closes its PostgreSQL sessions and exits 0', async () => {
    const running = await start();
    const planned = await burst();
    // Kept-alive connections, as a load balancer keeps them: one per request of the burst.
    const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
    try {
      let settled = 0;
      const outcomes = planned.map((p) => send(running.origin, agent, p).finally(() => (settled += 1)));
      // Taken: Fastify logs 'incoming request' once it routes a request, past its closing check.
      await running.waitForEntries((entries) => incomingApiRequests(entries) >= planned.length);
      running.signal('SIGTERM');
      const signalledAt = performance.now();
      const underwayAtSignal = planned.length - settled;
      await untilRefused(running.origin);
      const underwayAtRefusal = planned.length - settled;
      // After the close: new connections are refused, never taken and cut.
      const late = await Promise.all(Array.from({ length: 5 }, () => send(running.origin, false, { method: 'GET', path: '/api/v2/users/me', token })));
      const exit = await running.exited;
      const answers = await Promise.all(outcomes);
      console.log(
        `[shutdown] ${planned.length} requests taken; at SIGTERM ${underwayAtSignal} under way, ${underwayAtRefusal} still under way when new connections were refused;` +
          ` exit ${exit.code} ${((exit.at - signalledAt) / 1000).toFixed(2)} s after SIGTERM`,
      );

      const abnormal = planned.flatMap((p, i) => (p.expected(answers[i]!) ? [] : [{ request: `${p.method} ${p.path}`, outcome: answers[i] }]));
      expect(abnormal).toEqual([]);
      // The order of a graceful stop: the listener closed while requests it had taken were still under way.
      expect(underwayAtSignal, 'requests under way at SIGTERM').toBeGreaterThan(0);
      expect(underwayAtRefusal, 'requests under way once new connections were refused').toBeGreaterThan(0);
      expect(late.map((o) => o.error ?? o.status)).toEqual(Array(5).fill('ECONNREFUSED'));
      expect(exit.code).toBe(0);
      expect(exit.at - signalledAt).toBeLessThan(GRACE_MS);

      // Every acknowledged write is in the database.
      const updated = planned.filter((p) => p.kind === 'update');
      const titles = await database.query<{ id: string; job_title: string }>('select id, job_title from users where id = any($1::uuid[])', [updated.map((p) => p.target)]);
      expect(new Map(titles.map((u) => [u.id, u.job_title]))).toEqual(new Map(updated.map((p) => [p.target, p.title])));
      const created = answers.filter((_, i) => planned[i]!.kind === 'creation').map((a) => String(a.body.id));
      const found = await database.query<{ id: string }>('select id::text from invitations where id = any($1::bigint[])', [created]);
      expect(found.map((r) => r.id).sort()).toEqual([...created].sort());
      const rejected = planned.filter((p) => p.kind === 'rejection').map((p) => p.target);
      const decided = await database.query<{ status: string; rejection_reason: string }>('select status, rejection_reason from invitations where id = any($1::bigint[])', [rejected]);
      expect(decided).toEqual(rejected.map(() => ({ status: 'REJECTED', rejection_reason: REASON })));

      // Its PostgreSQL sessions were closed by the pool (a session dropped by the process's exit counts as abandoned).
      const sessions = async () => Number((await database.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where application_name = $1', [applicationName]))[0]!.n);
      for (let waited = 0; (await sessions()) > 0 && waited < 50; waited++) await new Promise((r) => setTimeout(r, 100));
      expect(await sessions()).toBe(0);
      await database.query('select pg_stat_clear_snapshot()');
      const [stats] = await database.query<{ sessions: number; abandoned: number }>(
        'select sessions::int, sessions_abandoned::int as abandoned from pg_stat_database where datname = $1',
        [database.name],
      );
      expect(stats!.sessions).toBeGreaterThan(0);
      expect(stats!.abandoned).toBe(0);

      // In order, without an error: closing, then closed (the e-mail loop stopped before the pool closed).
      const messages = running.entries().map((e) => e.msg);
      expect(messages.indexOf('closed')).toBeGreaterThan(messages.indexOf('SIGTERM received: closing'));
      expect(running.entries().filter((e) => Number(e.level) >= 50)).toEqual([]);
    } finally {
      agent.destroy();
    }
  });

  /** A request whose body never comes: taken, it can never end. */
  async function hangingRequest(running: WatchedServer): Promise<net.Socket> {
    const socket = net.connect({ host: '127.0.0.1', port: Number(new URL(running.origin).port) });
    socket.on('error', () => undefined);
    socket.write(`POST /api/v2/invitations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"inviteeEmail":`);
    await running.waitForEntries((entries) => incomingApiRequests(entries) >= 1);
    return socket;
  }

  it('does not wait past its grace period for a request that never ends: it exits 1 and says why', async () => {
    const running = await start();
    const socket = await hangingRequest(running);
    running.signal('SIGTERM');
    const signalledAt = performance.now();
    const exit = await running.exited;
    socket.destroy();
    console.log(`[shutdown] with a request that never ends: exit ${exit.code} ${((exit.at - signalledAt) / 1000).toFixed(2)} s after SIGTERM`);
    expect(exit.code).toBe(1);
    // It did wait for the request (the grace period), and not much longer.
    expect(exit.at - signalledAt).toBeGreaterThanOrEqual(GRACE_MS - 100);
    expect(exit.at - signalledAt).toBeLessThan(GRACE_MS + 5000);
    expect(running.entries().some((e) => Number(e.level) >= 50 && String(e.msg).startsWith('still closing after 10 s'))).toBe(true);
  });

  it('exits at once with code 1 on a second SIGTERM while closing, and says so', async () => {
    const running = await start();
    const socket = await hangingRequest(running);
    running.signal('SIGTERM');
    await running.waitForEntries((entries) => entries.some((e) => e.msg === 'SIGTERM received: closing'));
    running.signal('SIGTERM');
    const signalledAt = performance.now();
    const exit = await running.exited;
    socket.destroy();
    expect(exit.code).toBe(1);
    expect(exit.at - signalledAt).toBeLessThan(GRACE_MS / 2);
    expect(running.entries().some((e) => e.msg === 'SIGTERM received again while closing: exiting now')).toBe(true);
  });
});
