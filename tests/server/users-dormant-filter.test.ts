// The users list's 'Comptes dormants' (issue 23): accountState=dormant keeps the active accounts warned, or with no
// sign-in, creation or reactivation for DORMANCY_WARN_AFTER_DAYS, in the caller's reach, with an exact total; each
// dormant row says since when ('Inactif depuis le …'). The services' clock is a fake one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { fakeClock } from './support/fake-clock.ts';
import { fixtures } from './support/fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { callApi, demoOrganizations, PERSONAS, type DemoOrganizations } from './support/users-api.ts';

const T0 = Date.UTC(2026, 11, 14, 7, 30);
const DAY = 24 * 3600_000;
const at = (daysAgo: number) => new Date(T0 - daysAgo * DAY);

describe.each(backends)('GET /api/v2/users?accountState=dormant on $name', (backend) => {
  let t: TestApp;
  let orgs: DemoOrganizations;
  const people: Record<string, { id: string; email: string; subject: string }> = {};
  const db = () => t.database.handle.db;

  beforeAll(async () => {
    t = await startTestApp(backend, { jobClock: fakeClock(T0), runJobs: false });
    orgs = await demoOrganizations(t);
    await db().updateTable('users').set({ last_login_at: new Date(T0) }).execute();
    const make = async (name: string, organizationId: string, set: { last_login_at: Date | null; created_at?: Date; dormancy_warned_at?: Date; is_active?: boolean; reactivated_at?: Date }) => {
      people[name] = await fixtures(db()).user({ organizationId, roleCode: 'COMPTABLE', email: `${name}.dormant@exemple-test.fr` });
      await db().updateTable('users').set({ created_at: at(800), ...set }).where('id', '=', people[name]!.id).execute();
    };
    await make('ancien', orgs.clinique.id, { last_login_at: at(400) });
    await make('prevenu', orgs.clinique.id, { last_login_at: at(100), dormancy_warned_at: at(1) });
    await make('jamais', orgs.cliniqueSirets[0]!.id, { last_login_at: null, created_at: at(366) });
    await make('recent', orgs.clinique.id, { last_login_at: at(364) });
    await make('reactive', orgs.clinique.id, { last_login_at: at(500), reactivated_at: at(10) });
    await make('desactive', orgs.clinique.id, { last_login_at: at(500), is_active: false });
    await make('ailleurs', orgs.ehpad.id, { last_login_at: at(400) });
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = (as: string, query: Record<string, string | number | boolean | undefined> = {}) => callApi(t, { as, method: 'GET', route: '/api/v2/users', query });
  const emails = (body: { items: { email: string }[] }) => body.items.map((u) => u.email).sort();
  const emailOf = (...names: string[]) => names.map((n) => `${n}.dormant@exemple-test.fr`).sort();

  it('keeps the active accounts warned or without a sign-in, creation or reactivation for 365 days, with the exact total', async () => {
    const { status, body } = await list(PERSONAS.backoffice, { accountState: 'dormant', pageSize: 100 });
    expect(status).toBe(200);
    expect(emails(body)).toEqual(emailOf('ancien', 'prevenu', 'jamais', 'ailleurs'));
    expect(body.total).toBe(4);
    // Deactivated accounts are never dormant, even with includeInactive.
    expect((await list(PERSONAS.backoffice, { accountState: 'dormant', includeInactive: true })).body.total).toBe(4);
  });

  it("says since when each dormant person is inactive: the last sign-in, or the creation if never; null for the others", async () => {
    const { body } = await list(PERSONAS.backoffice, { accountState: 'dormant', pageSize: 100 });
    const since = Object.fromEntries(body.items.map((u: { email: string; dormantSince: string | null }) => [u.email.split('.')[0], u.dormantSince]));
    expect(since).toEqual({ ancien: at(400).toISOString(), prevenu: at(100).toISOString(), jamais: at(366).toISOString(), ailleurs: at(400).toISOString() });
    const everyone = await list(PERSONAS.backoffice, { search: 'recent.dormant' });
    expect(everyone.body.items).toMatchObject([{ email: 'recent.dormant@exemple-test.fr', dormantSince: null }]);
  });

  it("keeps an employer administrator's list within their reach, and combines with the other filters", async () => {
    const { body } = await list(PERSONAS.adminClinique, { accountState: 'dormant', pageSize: 100 });
    expect(emails(body)).toEqual(emailOf('ancien', 'prevenu', 'jamais'));
    expect(body.total).toBe(3);
    expect((await list(PERSONAS.adminEhpad, { accountState: 'dormant' })).body).toMatchObject({ total: 1, items: [{ email: 'ailleurs.dormant@exemple-test.fr' }] });
    const searched = await list(PERSONAS.backoffice, { accountState: 'dormant', search: 'ancien' });
    expect(searched.body).toMatchObject({ total: 1, items: [{ email: 'ancien.dormant@exemple-test.fr' }] });
    const bySiret = await list(PERSONAS.backoffice, { accountState: 'dormant', organizationId: orgs.cliniqueSirets[0]!.id });
    expect(emails(bySiret.body)).toEqual(emailOf('jamais'));
  });

  it('refuses an unknown state, naming the parameter', async () => {
    const { status, body } = await list(PERSONAS.backoffice, { accountState: 'endormi' });
    expect(status).toBe(400);
    expect(JSON.stringify(body.fieldErrors)).toContain('accountState');
  });

  it('follows a sign-in at once: the person leaves the list and its total', async () => {
    const before = (await list(PERSONAS.backoffice, { accountState: 'dormant' })).body.total;
    const token = await t.tokenFor(people.ancien!.email, { auth_time: Math.floor(T0 / 1000) });
    expect((await t.app.inject({ method: 'GET', url: '/api/v2/users/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    const after = await list(PERSONAS.backoffice, { accountState: 'dormant', pageSize: 100 });
    expect(after.body.total).toBe(before - 1);
    expect(emails(after.body)).not.toContain(people.ancien!.email);
  });
});
