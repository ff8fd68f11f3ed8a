// The back office's 'Comptes dormants' total (the users list's and the Accueil's dormantUsers) comes from the counters
// of migration 0031: exact at a cut-off inside a day, moving with the (fake) clock, with the warning off, and the caller
// left out; an account written with the triggers off is not seen, which the direct count would see.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dormantCondition } from '../../server/features/users/users-dormancy.repository.ts';
import { backends, type Backend } from './db/test-databases.ts';
import { fakeClock, type FakeClock } from './support/fake-clock.ts';
import { fixtures } from './support/fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { callApi, demoOrganizations, PERSONAS } from './support/users-api.ts';
import { withoutTriggers } from './support/without-triggers.ts';

const DAY = 24 * 3600_000;
/** The services' now: the cut-off (365 days before) falls at 07:30:00 on 2025-12-14 (UTC). */
const T0 = Date.UTC(2026, 11, 14, 7, 30);
const CUTOFF = T0 - 365 * DAY;

async function started(backend: Backend, clock: FakeClock, env: Record<string, string> = {}) {
  const t = await startTestApp(backend, { jobClock: clock, runJobs: false, env });
  const db = t.database.handle.db;
  const orgs = await demoOrganizations(t);
  const f = fixtures(db);
  // Activities on the cut-off's day, either side of it to the millisecond, and on the days around it.
  const moments = [CUTOFF - DAY, CUTOFF - 7.5 * 3600_000 - 1, CUTOFF - 7.5 * 3600_000, CUTOFF - 1, CUTOFF, CUTOFF + 1, CUTOFF + 3600_000, CUTOFF + 16.5 * 3600_000];
  for (const [i, at] of moments.entries()) {
    const person = await f.user({ organizationId: orgs.clinique.id, roleCode: 'COMPTABLE', email: `jour.${i}.${randomUUID().slice(0, 6)}@exemple-test.fr` });
    await db.updateTable('users').set({ created_at: new Date(at - 100 * DAY), last_login_at: new Date(at) }).where('id', '=', person.id).execute();
  }
  const warned = await f.user({ organizationId: orgs.ehpad.id, roleCode: 'COMPTABLE' });
  await db.updateTable('users').set({ dormancy_warned_at: new Date(T0 - DAY), last_login_at: new Date(T0 - 2 * DAY) }).where('id', '=', warned.id).execute();
  return t;
}

for (const backend of backends) {
  describe(`the back office's dormant total on ${backend.name}`, () => {
    let t: TestApp;
    const clock = fakeClock(T0);
    const db = () => t.database.handle.db;

    beforeAll(async () => {
      t = await started(backend, clock);
    });
    afterAll(async () => {
      await t?.close();
    });

    const direct = async (cutoff: Date | null) =>
      Number((await db().selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where(() => dormantCondition(cutoff)).executeTakeFirstOrThrow()).n);
    const listTotal = async (query: Record<string, string | boolean> = {}) => {
      const answer = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users', query: { accountState: 'dormant', ...query } });
      expect(answer.status).toBe(200);
      return answer.body.total as number;
    };
    const homeTotal = async () => (await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/home' })).body.dormantUsers as number;

    it('answers the direct count at a cut-off inside a day, in the list and on the Accueil, and follows the clock', async () => {
      const expected = await direct(new Date(clock.now() - 365 * DAY));
      expect(expected).toBeGreaterThan(0);
      expect(await listTotal()).toBe(expected);
      expect(await homeTotal()).toBe(expected);
      // One millisecond on: the person whose sign-in was one millisecond after the cut-off is dormant too.
      clock.advance(1);
      expect(await direct(new Date(clock.now() - 365 * DAY))).toBe(expected + 1);
      expect(await listTotal()).toBe(expected + 1);
      expect(await homeTotal()).toBe(expected + 1);
    });

    it('leaves the caller out when asked', async () => {
      const self = await db().selectFrom('users').select('id').where('email', '=', PERSONAS.backoffice).executeTakeFirstOrThrow();
      await db().updateTable('users').set({ dormancy_warned_at: new Date(clock.now() - DAY) }).where('id', '=', self.id).execute();
      const all = await listTotal();
      expect(all).toBe(await direct(new Date(clock.now() - 365 * DAY)));
      expect(await listTotal({ excludeSelf: true })).toBe(all - 1);
      await db().updateTable('users').set({ dormancy_warned_at: null }).where('id', '=', self.id).execute();
      expect(await listTotal({ excludeSelf: true })).toBe(all - 1);
      expect(await listTotal()).toBe(all - 1);
    });

    it('reads the counters, not the accounts: one written with the triggers off is not counted', async () => {
      const before = await listTotal();
      const hidden = randomUUID();
      await withoutTriggers(t.database.handle, `insert into users (id, email, first_name, last_name, user_type, created_at) values ($1, $2, 'Caché', 'Sans Déclencheur', 'ORGANIZATION', $3)`, [hidden, `cache.${hidden.slice(0, 8)}@exemple-test.fr`, new Date(T0 - 900 * DAY)]);
      try {
        expect(await direct(new Date(clock.now() - 365 * DAY))).toBe(before + 1);
        expect(await listTotal()).toBe(before);
        expect(await homeTotal()).toBe(before);
      } finally {
        await withoutTriggers(t.database.handle, 'delete from users where id = $1', [hidden]);
      }
    });
  });

  describe(`the back office's dormant total with the warning off on ${backend.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await started(backend, fakeClock(T0), { DORMANCY_WARN_AFTER_DAYS: '0' });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('counts the warned accounts only', async () => {
      const db = t.database.handle.db;
      const warned = Number((await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where(() => dormantCondition(null)).executeTakeFirstOrThrow()).n);
      expect(warned).toBeGreaterThan(0);
      const list = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users', query: { accountState: 'dormant' } });
      expect(list.body.total).toBe(warned);
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/home' })).body.dormantUsers).toBe(warned);
    });
  });
}
