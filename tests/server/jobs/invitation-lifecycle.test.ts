// The requests' lifecycle on the runner (server/jobs/invitation-lifecycle.ts, issue 22): pending requests expire
// after INVITATION_EXPIRY_DAYS, a requester is told once REMINDER_BEFORE_EXPIRY_DAYS before, and the back office
// gets one digest a day of the requests pending for more than REMINDER_PENDING_DAYS. A fake clock moves time.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requestLifecycleJobs } from '../../../server/jobs/invitation-lifecycle.ts';
import { scheduledJobs } from '../../../server/jobs/index.ts';
import { createJobRunner } from '../../../server/jobs/runner.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from '../db/test-databases.ts';
import { fakeClock } from '../support/fake-clock.ts';
import { fixtures } from '../support/fixtures.ts';

const T0 = Date.UTC(2026, 11, 14, 7, 30); // 14/12/2026 08:30 in Paris
const DAY = 24 * 3600_000;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const REQUESTS = { expiryDays: 30, reminderPendingDays: 7, reminderBeforeExpiryDays: 3 };

describe.each(backends)('the requests lifecycle jobs on $name', (backend) => {
  let testDb: TestDatabase;
  let clinicId: string;
  const db = () => testDb.handle.db;
  const jobs = () => requestLifecycleJobs({ db: db(), requests: REQUESTS, listUrl: 'https://portail.exemple.fr/admin' });
  const job = (name: string) => jobs().find((j) => j.name === name)!;
  const run = (name: string, now: number) => job(name).run({ now: new Date(now), signal: new AbortController().signal, log: silent });

  beforeAll(async () => {
    testDb = await createSeededTestDatabase(backend);
    clinicId = (await fixtures(db()).organization('Clinique des Tilleuls')).id;
  }, 60_000);
  afterAll(async () => {
    await testDb?.dispose();
  });
  beforeEach(async () => {
    await db().deleteFrom('invitations').execute();
    await db().deleteFrom('outbox').execute();
    await db().deleteFrom('invitation_digests').execute();
    await db().deleteFrom('scheduled_jobs').execute();
  });

  /** A pending request of admin.clinique's, made `daysAgo` days before T0. */
  async function request(daysAgo: number) {
    const { id } = await fixtures(db()).pendingInvitation({ sirenId: clinicId, senderEmail: 'admin.clinique@portail.test' });
    await db().updateTable('invitations').set({ created_at: new Date(T0 - daysAgo * DAY) }).where('id', '=', id).execute();
    return id;
  }
  const statusOf = async (id: number) => (await db().selectFrom('invitations').select(['status', 'processed_at']).where('id', '=', id).executeTakeFirstOrThrow());
  const mails = (kind: string) => db().selectFrom('outbox').select(['recipient', 'subject', 'body']).where('kind', '=', kind as 'invitation.expiring').orderBy('id').execute();

  it('expires the pending requests past their period, at the moment their period ended, each with its journal entry; the others stay', async () => {
    const old = await request(30.5);
    const recent = await request(29.5);
    expect(await run('invitations.expiry', T0)).toEqual({ expired: 1 });
    expect(await statusOf(old)).toEqual({ status: 'EXPIRED', processed_at: new Date(T0 - 0.5 * DAY) });
    expect((await statusOf(recent)).status).toBe('PENDING');
    const journal = await db().selectFrom('audit_log').select(['action', 'actor_id', 'actor_email']).where('entity_type', '=', 'invitation').where('entity_id', '=', String(old)).execute();
    expect(journal).toEqual([{ action: 'invitation.expire', actor_id: null, actor_email: null }]);
    expect(await run('invitations.expiry', T0)).toEqual({ expired: 0 });
  });

  it('expires batch after batch, and stops between batches when the server stops', async () => {
    for (let i = 0; i < 5; i++) await request(40 + i);
    const stopping = new AbortController();
    stopping.abort();
    const batched = requestLifecycleJobs({ db: db(), requests: REQUESTS, listUrl: '', batchSize: 2 })[0]!;
    expect(await batched.run({ now: new Date(T0), signal: stopping.signal, log: silent })).toEqual({ expired: 0 });
    expect(await batched.run({ now: new Date(T0), signal: new AbortController().signal, log: silent })).toEqual({ expired: 5 });
  });

  it('tells the requester once, 3 days before their request expires, with its date; never one past its period', async () => {
    const soon = await request(27.5);
    await request(26.5);
    await request(31);
    expect(await run('invitations.expiry-reminder', T0)).toEqual({ reminded: 1 });
    const sent = await mails('invitation.expiring');
    expect(sent).toEqual([
      {
        recipient: 'admin.clinique@portail.test',
        subject: `Demande n° ${soon} : expiration le 16/12/2026`,
        body: expect.stringContaining("Sans décision d'ici là, elle expirera le 16/12/2026"),
      },
    ]);
    expect(await run('invitations.expiry-reminder', T0 + 3600_000)).toEqual({ reminded: 0 });
    expect(await run('invitations.expiry-reminder', T0 + DAY)).toEqual({ reminded: 1 });
    expect(await mails('invitation.expiring')).toHaveLength(2);
  });

  it('sends the back office one digest a day of the requests pending for more than 7 days, to each decider', async () => {
    const waiting = await request(8);
    await request(6);
    const summary = await run('invitations.pending-digest', T0);
    const deciders = (await db().selectFrom('users').innerJoin('user_permissions', 'user_permissions.user_id', 'users.id').select('users.email').distinct()
      .where('users.user_type', '=', 'BACKOFFICE').where('users.is_active', '=', true).where('user_permissions.permission_code', '=', 'USER_CREATE').execute()).map((u) => u.email);
    expect(deciders).toContain('backoffice@portail.test');
    expect(deciders).not.toContain('lecteur@portail.test');
    expect(summary).toEqual({ sent: deciders.length, requests: 1 });
    const digests = await mails('invitation.pending.digest');
    expect(digests.map((m) => m.recipient).sort()).toEqual([...deciders].sort());
    expect(digests[0]!.subject).toBe('1 demande en attente depuis plus de 7 jours');
    expect(digests[0]!.body).toContain(`- n° ${waiting}, `);
    expect(digests[0]!.body).toContain('faite le 06/12/2026');
    expect(digests[0]!.body).toContain('https://portail.exemple.fr/admin');
    // Once a day (Europe/Paris): later that day nothing; the next day again.
    expect(await run('invitations.pending-digest', T0 + 10 * 3600_000)).toEqual({ sent: 0, requests: 1 });
    expect(await run('invitations.pending-digest', T0 + DAY)).toEqual({ sent: deciders.length, requests: 2 });
  });

  it('sends no digest when no request waits that long', async () => {
    await request(2);
    expect(await run('invitations.pending-digest', T0)).toEqual({ sent: 0, requests: 0 });
    expect(await mails('invitation.pending.digest')).toEqual([]);
  });

  it('look every 5 minutes for requests to expire, and every hour for reminders to send', () => {
    expect(jobs().map((j) => [j.name, j.everyMs])).toEqual([
      ['invitations.expiry', 5 * 60_000],
      ['invitations.expiry-reminder', 3600_000],
      ['invitations.pending-digest', 3600_000],
    ]);
  });

  it('are jobs of the runner, which expire and remind as days pass on its clock', async () => {
    const clock = fakeClock(T0);
    const listed = scheduledJobs({ db: db(), outboxRetentionDays: 30, auditRetentionDays: 365, expiredRowPurges: [], requests: REQUESTS, publicOrigin: 'https://portail.exemple.fr' });
    const runner = createJobRunner({ db: db(), jobs: listed.filter((j) => j.name.startsWith('invitations.')), log: silent, clock });
    const id = await request(26.5);
    expect(await runner.tick()).toMatchObject([
      { job: 'invitations.expiry', outcome: 'succeeded', summary: { expired: 0 } },
      { job: 'invitations.expiry-reminder', outcome: 'succeeded', summary: { reminded: 0 } },
      { job: 'invitations.pending-digest', outcome: 'succeeded', summary: { sent: expect.any(Number), requests: 1 } },
    ]);
    clock.advance(DAY);
    expect(await runner.tick()).toMatchObject([
      { job: 'invitations.expiry', summary: { expired: 0 } },
      { job: 'invitations.expiry-reminder', summary: { reminded: 1 } },
      { job: 'invitations.pending-digest', summary: { requests: 1 } },
    ]);
    clock.advance(4 * DAY);
    expect(await runner.tick()).toMatchObject([{ job: 'invitations.expiry', summary: { expired: 1 } }, { summary: { reminded: 0 } }, { summary: { requests: 0 } }]);
    expect((await statusOf(id)).status).toBe('EXPIRED');
  });
});
