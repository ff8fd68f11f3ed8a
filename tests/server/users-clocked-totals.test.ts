// The kept totals of the users list's states that move with the clock (server/db/list-totals.ts TotalClock, migration
// 0033): 'Comptes dormants' and 'Lien d'activation expiré' are kept between requests, yet follow the clock (a user
// crossing the cut-off), a sign-in, a warning and a link sent, at once; and the Accueil's counts with them.
// The services' clock is a fake one; each test reads a total, moves one thing, and reads it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { fakeClock, type FakeClock } from './support/fake-clock.ts';
import { fixtures } from './support/fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { callApi, demoOrganizations, PERSONAS, type DemoOrganizations } from './support/users-api.ts';

const T0 = Date.UTC(2026, 11, 14, 7, 30);
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const at = (daysAgo: number) => new Date(T0 - daysAgo * DAY);

describe.each(backends)('kept totals that move with the clock on $name', (backend) => {
  let t: TestApp;
  let clock: FakeClock;
  let orgs: DemoOrganizations;
  const people: Record<string, { id: string; email: string }> = {};
  const db = () => t.database.handle.db;

  beforeAll(async () => {
    clock = fakeClock(T0);
    t = await startTestApp(backend, { jobClock: clock, runJobs: false });
    orgs = await demoOrganizations(t);
    await db().updateTable('users').set({ last_login_at: new Date(T0) }).execute();
    const make = async (name: string, set: { last_login_at: Date | null; created_at?: Date; invitation_sent_at?: Date }) => {
      people[name] = await fixtures(db()).user({ organizationId: orgs.clinique.id, roleCode: 'COMPTABLE', email: `${name}.horloge@exemple-test.fr` });
      await db().updateTable('users').set({ created_at: at(800), ...set }).where('id', '=', people[name]!.id).execute();
    };
    await make('endormi', { last_login_at: at(400) });
    // Dormant one day after T0, then half a day after that.
    await make('bientot', { last_login_at: at(364) });
    await make('ensuite', { last_login_at: new Date(T0 - 364 * DAY + 12 * HOUR) });
    await make('reveille', { last_login_at: at(500) });
    // A link sent 6 days and 23 hours before T0 expires an hour after it (ACCOUNT_SETUP_TTL: 7 days).
    await make('invite', { last_login_at: null, created_at: at(10), invitation_sent_at: new Date(T0 - 7 * DAY + HOUR) });
  });
  afterAll(async () => {
    await t?.close();
  });

  const total = async (as: string, accountState: string) => {
    const { status, body } = await callApi(t, { as, method: 'GET', route: '/api/v2/users', query: { accountState } });
    expect(status).toBe(200);
    return body.total as number;
  };
  const home = async (as: string) => (await callApi(t, { as, method: 'GET', route: '/api/v2/home' })).body as Record<string, number>;

  it('counts a user in as soon as the clock brings them past the cut-off, kept or not', async () => {
    const before = await total(PERSONAS.adminClinique, 'dormant');
    expect(await total(PERSONAS.adminClinique, 'dormant')).toBe(before);
    expect((await home(PERSONAS.adminClinique)).dormantUsers).toBe(before);
    clock.advance(DAY + 1);
    expect(await total(PERSONAS.adminClinique, 'dormant')).toBe(before + 1);
    expect((await home(PERSONAS.adminClinique)).dormantUsers).toBe(before + 1);
    clock.advance(12 * HOUR);
    expect(await total(PERSONAS.adminClinique, 'dormant')).toBe(before + 2);
    expect(await total(PERSONAS.backoffice, 'dormant')).toBe(await directDormantCount());
  });

  it('counts again when the clock goes back', async () => {
    const now = await total(PERSONAS.adminClinique, 'dormant');
    clock.advance(-(DAY + 12 * HOUR + 1));
    expect(await total(PERSONAS.adminClinique, 'dormant')).toBe(now - 2);
    clock.advance(DAY + 12 * HOUR + 1);
  });

  it('follows a sign-in at once, though the users list version does not move', async () => {
    const before = await total(PERSONAS.adminClinique, 'dormant');
    await db().updateTable('users').set({ last_login_at: new Date(clock.now()) }).where('id', '=', people.reveille!.id).execute();
    expect(await total(PERSONAS.adminClinique, 'dormant')).toBe(before - 1);
    expect((await home(PERSONAS.adminClinique)).dormantUsers).toBe(before - 1);
  });

  it('follows a warning at once', async () => {
    const before = await total(PERSONAS.adminClinique, 'dormant');
    const recent = await fixtures(db()).user({ organizationId: orgs.clinique.id, roleCode: 'COMPTABLE', email: 'averti.horloge@exemple-test.fr' });
    expect(await total(PERSONAS.adminClinique, 'dormant')).toBe(before);
    await db().updateTable('users').set({ dormancy_warned_at: new Date(clock.now()) }).where('id', '=', recent.id).execute();
    expect(await total(PERSONAS.adminClinique, 'dormant')).toBe(before + 1);
  });

  it("counts a set-up link in as soon as it expires, and out at the person's first sign-in", async () => {
    clock.advance(-(DAY + 12 * HOUR + 1));
    try {
      const before = await total(PERSONAS.backoffice, 'setupLinkExpired');
      expect(await total(PERSONAS.backoffice, 'setupLinkExpired')).toBe(before);
      clock.advance(HOUR + 1);
      expect(await total(PERSONAS.backoffice, 'setupLinkExpired')).toBe(before + 1);
      expect((await home(PERSONAS.backoffice)).setupLinkExpiredUsers).toBe(before + 1);
      await db().updateTable('users').set({ last_login_at: new Date(clock.now()) }).where('id', '=', people.invite!.id).execute();
      expect(await total(PERSONAS.backoffice, 'setupLinkExpired')).toBe(before);
    } finally {
      clock.advance(DAY + 12 * HOUR + 1 - (HOUR + 1));
    }
  });

  async function directDormantCount(): Promise<number> {
    const cutoff = new Date(clock.now() - 365 * DAY);
    const { count } = await db()
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('is_active', '=', true)
      .where((eb) =>
        eb.or([
          eb('dormancy_warned_at', 'is not', null),
          eb(eb.fn('greatest', ['last_login_at', 'created_at', 'reactivated_at']), '<=', cutoff),
        ]),
      )
      .executeTakeFirstOrThrow();
    return Number(count);
  }
});
