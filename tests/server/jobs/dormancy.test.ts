// Dormant accounts on the runner (server/jobs/dormancy.ts, issue 23): a person not signed in for the first period is
// warned by e-mail, deactivated after the second, deleted after the third (never a back-office account); a sign-in
// or a reactivation restarts the clock; 0 turns a step off. The real server's runner ticks on a fake clock.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRunEvent } from '../../../server/jobs/runner.ts';
import { dormancyJobs } from '../../../server/jobs/dormancy.ts';
import { backends, type Backend } from '../db/test-databases.ts';
import { send } from '../support/api.ts';
import { fakeClock, type FakeClock } from '../support/fake-clock.ts';
import { servicesFor } from '../support/services.ts';
import { fixtures } from '../support/fixtures.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const T0 = Date.UTC(2026, 11, 14, 7, 30); // 14/12/2026 08:30 in Paris
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const PERIODS = { DORMANCY_WARN_AFTER_DAYS: '365', DORMANCY_DEACTIVATE_AFTER_DAYS: '30', DORMANCY_DELETE_AFTER_DAYS: '365' };
const CONFIG = { warnAfterDays: 365, deactivateAfterDays: 30, deleteAfterDays: 365 };
// Each test moves a year or more of jobs on a fresh server: minutes on a loaded machine, never a sleep.
vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

describe.each(backends)('the dormant accounts jobs on $name', (backend: Backend) => {
  let t: TestApp | undefined;
  let clock: FakeClock;
  const db = () => t!.database.handle.db;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** A server on a fresh database at T0, where every seeded person signed in at T0 (none dormant before the test's own). */
  async function start(env: Record<string, string> = PERIODS) {
    clock = fakeClock(T0);
    t = await startTestApp(backend, { jobClock: clock, runJobs: false, env });
    await db().updateTable('users').set({ last_login_at: new Date(T0) }).execute();
  }
  /** Moves the clock on and runs every job due; answers the dormancy jobs' summaries by name. */
  async function after(ms: number): Promise<Record<string, JobRunEvent['summary']>> {
    clock.advance(ms);
    const events = await t!.app.jobs.tick();
    const failed = events.filter((e) => e.outcome !== 'succeeded');
    expect(failed).toEqual([]);
    return Object.fromEntries(events.filter((e) => e.job.startsWith('users.dormancy')).map((e) => [e.job, e.summary]));
  }
  /** An employer's user who last signed in `daysAgo` days before T0 (never: created then). */
  async function person(daysAgo: number, options: { roleCode?: string; organizationId?: string; signedIn?: boolean; backOffice?: boolean } = {}) {
    const organizationId = options.organizationId ?? (await fixtures(db()).organization('Clinique des Tilleuls')).id;
    const made = await fixtures(db()).user({ organizationId, roleCode: options.roleCode ?? 'COMPTABLE', email: `dormant.${randomUUID().slice(0, 8)}@exemple-test.fr` });
    const at = new Date(T0 - daysAgo * DAY);
    await db()
      .updateTable('users')
      .set({ created_at: options.signedIn === false ? at : new Date(T0 - 800 * DAY), last_login_at: options.signedIn === false ? null : at, user_type: options.backOffice ? 'BACKOFFICE' : 'ORGANIZATION' })
      .where('id', '=', made.id)
      .execute();
    return made;
  }
  const row = (id: string) => db().selectFrom('users').select(['is_active', 'dormancy_warned_at', 'dormancy_deactivated_at']).where('id', '=', id).executeTakeFirst();
  const mailsTo = (recipient: string) => db().selectFrom('outbox').select(['kind', 'subject', 'body']).where('recipient', '=', recipient).orderBy('id').execute();
  const journal = (id: string) => db().selectFrom('audit_log').select(['action', 'actor_id', 'actor_email', 'actor_name']).where('entity_type', '=', 'user').where('entity_id', '=', id).orderBy('id').execute();
  /** The person opens the portal with a token signed in at `at`: the sign-in the session records. */
  async function signIn(email: string, at: number) {
    const token = await t!.tokenFor(email, { auth_time: Math.floor(at / 1000) });
    return (await t!.app.inject({ method: 'GET', url: '/api/v2/users/me', headers: { authorization: `Bearer ${token}` } })).statusCode;
  }
  const identityEnabled = async (subject: string) => (await db().selectFrom('identity_accounts').select('enabled').where('subject', '=', subject).executeTakeFirst())?.enabled;

  it('warns an account on schedule, deactivates it 30 days later as a person would, and deletes it 365 days after that', async () => {
    await start();
    const sleeper = await person(365 + 1 / 24);
    const recent = await person(364);
    const summaries = await after(0);
    expect(summaries['users.dormancy-warning']).toEqual({ warned: 1, sirens: 0 });
    expect((await row(sleeper.id))!.dormancy_warned_at).toEqual(new Date(T0));
    expect((await row(recent.id))!.dormancy_warned_at).toBeNull();
    const [warning, ...more] = await mailsTo(sleeper.email);
    expect(more).toEqual([]);
    expect(warning!.kind).toBe('account.dormancy.warning');
    expect(warning!.subject).toBe('Votre compte sera désactivé le 13/01/2027');
    expect(warning!.body).toContain('Vous ne vous êtes pas connecté au Portail Habilitations depuis le 14/12/2025.');
    expect(warning!.body).toContain('connectez-vous au portail avant le 13/01/2027');
    expect(warning!.body).not.toMatch(/https?:|www\./);

    expect((await after(29 * DAY))['users.dormancy-deactivation']).toEqual({ deactivated: 0, failed: 0 });
    expect((await row(sleeper.id))!.is_active).toBe(true);
    expect((await after(DAY + HOUR))['users.dormancy-deactivation']).toEqual({ deactivated: 1, failed: 0 });
    expect(await row(sleeper.id)).toMatchObject({ is_active: false, dormancy_deactivated_at: new Date(T0 + 30 * DAY + HOUR) });
    expect(await identityEnabled(sleeper.subject)).toBe(false);
    expect(await journal(sleeper.id)).toEqual([{ action: 'user.deactivate', actor_id: null, actor_email: null, actor_name: 'Système' }]);
    expect(await mailsTo(sleeper.email)).toHaveLength(1);

    expect((await after(364 * DAY))['users.dormancy-deletion']).toEqual({ deleted: 0, failed: 0 });
    expect((await after(DAY + HOUR))['users.dormancy-deletion']).toEqual({ deleted: 1, failed: 0 });
    expect(await row(sleeper.id)).toBeUndefined();
    // The deactivation's entry is past the journal's retention (365 days) by then.
    expect(await journal(sleeper.id)).toEqual([{ action: 'user.delete', actor_id: null, actor_email: null, actor_name: 'Système' }]);
  });

  it('counts from the creation for an account never signed in', async () => {
    await start();
    const never = await person(366, { signedIn: false });
    expect((await after(0))['users.dormancy-warning']).toEqual({ warned: 1, sirens: 0 });
    const [warning] = await mailsTo(never.email);
    expect(warning!.body).toContain('depuis la création de votre compte, le 13/12/2025.');
  });

  it('stops at a sign-in in between: the warning ends, and nothing is deactivated', async () => {
    await start();
    const sleeper = await person(366);
    await after(0);
    expect((await row(sleeper.id))!.dormancy_warned_at).not.toBeNull();
    clock.advance(10 * DAY);
    expect(await signIn(sleeper.email, T0 + 10 * DAY)).toBe(200);
    expect((await row(sleeper.id))!.dormancy_warned_at).toBeNull();
    expect((await after(25 * DAY))['users.dormancy-deactivation']).toEqual({ deactivated: 0, failed: 0 });
    expect((await row(sleeper.id))!.is_active).toBe(true);
    expect(await mailsTo(sleeper.email)).toHaveLength(1);
  });

  it('counts again from a reactivation: a just reactivated account is neither warned nor deactivated the next hour', async () => {
    await start();
    const sleeper = await person(366);
    await after(0);
    await after(31 * DAY);
    expect((await row(sleeper.id))!.is_active).toBe(false);
    const reactivated = await send(t!, 'backoffice@portail.test', { method: 'POST', url: `/api/v2/users/${sleeper.id}/reactivate` });
    expect(reactivated.status).toBe(200);
    expect(await row(sleeper.id)).toEqual({ is_active: true, dormancy_warned_at: null, dormancy_deactivated_at: null });
    const summaries = await after(HOUR);
    expect(summaries['users.dormancy-warning']).toEqual({ warned: 0, sirens: 0 });
    expect((await row(sleeper.id))!.is_active).toBe(true);
  });

  it('warns and deactivates a back-office account, but never deletes it', async () => {
    await start();
    const staff = await person(366, { roleCode: 'ADMIN_OPCO', backOffice: true });
    await after(0);
    await after(31 * DAY);
    expect((await row(staff.id))!.is_active).toBe(false);
    expect((await after(400 * DAY))['users.dormancy-deletion']).toEqual({ deleted: 0, failed: 0 });
    expect(await row(staff.id)).toMatchObject({ is_active: false });
  });

  it('turns each step off with 0, and the steps after it', async () => {
    await start({ ...PERIODS, DORMANCY_DELETE_AFTER_DAYS: '0' });
    const sleeper = await person(366);
    await after(0);
    await after(31 * DAY);
    expect((await after(400 * DAY))['users.dormancy-deletion']).toEqual({ deleted: 0, failed: 0 });
    expect(await row(sleeper.id)).toMatchObject({ is_active: false });
    await t!.close();

    await start({ ...PERIODS, DORMANCY_DEACTIVATE_AFTER_DAYS: '0' });
    const warnedOnly = await person(366);
    await after(0);
    const [warning] = await mailsTo(warnedOnly.email);
    expect(warning!.subject).toBe('Votre compte sur le Portail Habilitations est inutilisé');
    expect(warning!.body).not.toContain('désactivé');
    expect((await after(800 * DAY))['users.dormancy-deactivation']).toEqual({ deactivated: 0, failed: 0 });
    expect(await row(warnedOnly.id)).toMatchObject({ is_active: true });
    await t!.close();

    await start({ ...PERIODS, DORMANCY_WARN_AFTER_DAYS: '0' });
    const untouched = await person(2000);
    expect((await after(0))['users.dormancy-warning']).toEqual({ warned: 0, sirens: 0 });
    expect(await row(untouched.id)).toEqual({ is_active: true, dormancy_warned_at: null, dormancy_deactivated_at: null });
  });

  it("tells the back office once when a SIREN's last active administrator is warned, and again only after one came back", async () => {
    await start();
    const siren = await fixtures(db()).organization('Clinique des Tilleuls');
    const [siret] = await fixtures(db()).siretsOf(siren.id);
    // The seeded administrators of that SIREN are active and signed in; the test's own is on one of its SIRETs.
    await db().updateTable('users').set({ is_active: false }).where('id', 'in', (eb) =>
      eb.selectFrom('role_assignments as ra').innerJoin('roles as r', 'r.id', 'ra.role_id').innerJoin('organizations as o', 'o.id', 'ra.organization_id')
        .select('ra.user_id').where('r.code', 'in', ['ADMIN_ADHERENT', 'ORG_ADMIN']).where((o) => o.or([o('o.id', '=', siren.id), o('o.parent_id', '=', siren.id)]))).execute();
    const lastAdmin = await person(366, { roleCode: 'ADMIN_ADHERENT', organizationId: siret!.id });
    const otherAdmin = await person(300, { roleCode: 'ADMIN_ADHERENT', organizationId: siren.id });
    const deciders = await db().selectFrom('users').innerJoin('user_permissions as p', 'p.user_id', 'users.id').select('users.email').distinct()
      .where('users.user_type', '=', 'BACKOFFICE').where('users.is_active', '=', true).where('p.permission_code', '=', 'USER_CREATE').execute();
    expect(deciders.length).toBeGreaterThan(0);
    const notices = () => db().selectFrom('outbox').select(['recipient', 'subject', 'body']).where('kind', '=', 'dormancy.siren.unmanaged').orderBy('id').execute();

    // One of two administrators warned: the SIREN still has one.
    expect((await after(0))['users.dormancy-warning']).toEqual({ warned: 1, sirens: 0 });
    expect((await row(lastAdmin.id))!.dormancy_warned_at).not.toBeNull();
    // The other warned too: each decider of the back office is told, once.
    expect((await after(66 * DAY))['users.dormancy-warning']).toEqual({ warned: 1, sirens: 1 });
    const told = await notices();
    expect(told.map((m) => m.recipient).sort()).toEqual(deciders.map((d) => d.email).sort());
    expect(told[0]!.subject).toBe(`SIREN ${siren.code} : plus d'administrateur actif`);
    expect(told[0]!.body).toContain(`L'entreprise ${siren.name} (SIREN ${siren.code}) n'a plus d'administrateur actif sur le portail.`);
    expect(told[0]!.body).toContain(otherAdmin.email);
    expect((await after(HOUR))['users.dormancy-warning']).toEqual({ warned: 0, sirens: 0 });
    expect(await notices()).toHaveLength(told.length);

    // One signs in again, then is warned again a year later: told again.
    expect(await signIn(otherAdmin.email, clock.now())).toBe(200);
    await db().updateTable('users').set({ last_login_at: new Date(clock.now() + 1000 * DAY) }).where('id', '<>', otherAdmin.id).execute();
    await after(HOUR);
    expect((await after(366 * DAY))['users.dormancy-warning']).toEqual({ warned: 1, sirens: 1 });
    expect(await notices()).toHaveLength(2 * told.length);
  });

  it('spreads a backlog over the runs: at most so many accounts moved by one run, the rest at the next', async () => {
    await start();
    const sleepers = [await person(400), await person(401), await person(402)];
    const services = servicesFor(db(), { now: () => new Date(clock.now()), dormancy: CONFIG });
    const jobs = dormancyJobs({ dormancy: services.dormancy, config: CONFIG, maxPerRun: 2, batchSize: 1 });
    const run = (name: string, now: number) => jobs.find((j) => j.name === name)!.run({ now: new Date(now), signal: new AbortController().signal, log: { info: () => undefined, warn: () => undefined, error: () => undefined } });
    expect(await run('users.dormancy-warning', T0)).toEqual({ warned: 2, sirens: 0 });
    expect(await run('users.dormancy-warning', T0 + HOUR)).toEqual({ warned: 1, sirens: 0 });
    expect(await run('users.dormancy-deactivation', T0 + 31 * DAY)).toEqual({ deactivated: 2, failed: 0 });
    expect(await run('users.dormancy-deactivation', T0 + 31 * DAY + HOUR)).toEqual({ deactivated: 1, failed: 0 });
    for (const sleeper of sleepers) expect((await row(sleeper.id))!.is_active).toBe(false);
  });

  it('sends each warning once when two servers run the jobs on one database', async () => {
    await start();
    const sleepers = [await person(400), await person(401), await person(402)];
    const second = await startTestApp(backend, { jobClock: clock, runJobs: false, env: PERIODS, database: t!.database });
    try {
      clock.advance(0);
      await Promise.all([t!.app.jobs.tick(), second.app.jobs.tick()]);
      for (const sleeper of sleepers) expect(await mailsTo(sleeper.email)).toHaveLength(1);
    } finally {
      await second.stopServer();
    }
  });
});
