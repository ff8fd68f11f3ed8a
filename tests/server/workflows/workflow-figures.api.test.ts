// Issue 24 through the API: the request lifecycle's figures on a data set of known counts and times (a fake clock),
// the period's validation, the scope of each persona, and the CSV file in the journal export's format.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../db/test-databases.ts';
import { callApi, send } from '../support/api.ts';
import { readCsv } from '../support/csv.ts';
import { fakeClock } from '../support/fake-clock.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { organizationByName } from '../support/invitations.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const ROUTE = '/api/v2/workflows/{workflowId}/figures' as const;
const EXPORT_ROUTE = '/api/v2/workflows/{workflowId}/figures/export' as const;
const params = { workflowId: 'request-lifecycle' };

type Status = 'PENDING' | 'APPROVED' | 'REJECTED' | 'EXPIRED' | 'CANCELLED';
/** A request of the data set: made `madeDaysAgo` days ago, moved `pendingHours` hours later (none while pending). */
interface Made {
  status: Status;
  madeDaysAgo: number;
  pendingHours?: number;
  by?: 'admin.clinique' | 'admin.ehpad';
  on?: 'clinic' | 'ehpad';
}

for (const backend of backends) {
  describe(`the request lifecycle's figures on ${backend.name}`, () => {
    const clock = fakeClock(Date.parse('2026-06-15T10:00:00Z'));
    let t: TestApp;
    let ids: Record<string, string>;
    let orgs: Record<'clinic' | 'ehpad', { id: string; code: string; name: string }>;

    const db = () => t.database.handle.db;

    async function make(rows: Made[]) {
      let n = 0;
      for (const row of rows) {
        n += 1;
        const org = orgs[row.on ?? 'clinic'];
        const sender = row.by ?? null;
        const created = new Date(clock.now() - row.madeDaysAgo * DAY);
        const processed = row.status === 'PENDING' ? null : new Date(created.getTime() + (row.pendingHours ?? 0) * HOUR);
        await db()
          .insertInto('invitations')
          .values({
            invitee_email: `chiffres.${backend.name.toLowerCase()}.${n}.${Math.random().toString(36).slice(2, 8)}@exemple-test.fr`,
            organization_id: org.id,
            organization_code: org.code,
            organization_name: org.name,
            role_code: 'ADMIN_ADHERENT',
            role_name: 'Administrateur adhérent',
            invitation_type: 'NEW_ADMIN',
            sender_email: sender ? `${sender}@portail.test` : 'backoffice@portail.test',
            sender_user_id: sender ? ids[sender]! : ids.backoffice!,
            metadata: JSON.stringify({}),
            status: row.status,
            created_at: created,
            processed_at: processed,
            validator_email: row.status === 'APPROVED' || row.status === 'REJECTED' ? 'backoffice@portail.test' : null,
            rejection_reason: row.status === 'REJECTED' ? 'Un motif assez long.' : null,
            cancelled_by_email: row.status === 'CANCELLED' ? 'admin.clinique@portail.test' : null,
          })
          .execute();
      }
    }

    beforeAll(async () => {
      t = await startTestApp(backend, { jobClock: clock, runJobs: false });
      const users = await db().selectFrom('users').select(['id', 'email']).where('email', 'in', ['backoffice@portail.test', 'admin.clinique@portail.test', 'admin.ehpad@portail.test']).execute();
      ids = Object.fromEntries(users.map((u) => [u.email.replace('@portail.test', ''), u.id]));
      const clinic = await organizationByName(t, 'Clinique des Tilleuls');
      const ehpad = await organizationByName(t, 'EHPAD Les Glycines');
      const full = await db().selectFrom('organizations').select(['id', 'code', 'name']).where('code', 'in', [clinic.code, ehpad.code]).execute();
      orgs = { clinic: full.find((o) => o.code === clinic.code)!, ehpad: full.find((o) => o.code === ehpad.code)! };
      // Only this data set: the demo's requests are dated by the real clock.
      await db().deleteFrom('invitations').execute();
      await make([
        // Pending now: 3, two of them admin.clinique's.
        { status: 'PENDING', madeDaysAgo: 1, by: 'admin.clinique' },
        { status: 'PENDING', madeDaysAgo: 2, by: 'admin.clinique' },
        { status: 'PENDING', madeDaysAgo: 20 },
        // Approved within 7 days after 1, 2 and 4 hours (median 2 h); one within 30 days after 10 hours.
        { status: 'APPROVED', madeDaysAgo: 1, pendingHours: 1, by: 'admin.clinique' },
        { status: 'APPROVED', madeDaysAgo: 3, pendingHours: 2 },
        { status: 'APPROVED', madeDaysAgo: 6, pendingHours: 4 },
        { status: 'APPROVED', madeDaysAgo: 12, pendingHours: 10, by: 'admin.clinique' },
        // Rejected within 7 days after 1 and 3 hours (median 2 h).
        { status: 'REJECTED', madeDaysAgo: 2, pendingHours: 1 },
        { status: 'REJECTED', madeDaysAgo: 4, pendingHours: 3, by: 'admin.clinique' },
        // Expired after its 30 days, 5 days ago: in 7 days' figures, made before their period.
        { status: 'EXPIRED', madeDaysAgo: 35, pendingHours: 30 * 24 },
        // Cancelled 60 days ago (90 days' figures only), and 200 days ago (in none).
        { status: 'CANCELLED', madeDaysAgo: 61, pendingHours: 24, by: 'admin.clinique' },
        { status: 'CANCELLED', madeDaysAgo: 200, pendingHours: 24 },
        // admin.clinique's request on the EHPAD, where they hold no USER_CREATE: out of their figures.
        { status: 'APPROVED', madeDaysAgo: 1, pendingHours: 5, by: 'admin.clinique', on: 'ehpad' },
        // admin.ehpad's own.
        { status: 'PENDING', madeDaysAgo: 1, by: 'admin.ehpad', on: 'ehpad' },
      ]);
    });
    afterAll(async () => {
      await t?.close();
    });

    const figuresAs = (as: string, query: Record<string, string | number> | string = {}) => callApi(t, { as, method: 'GET', route: ROUTE, params, query });
    const transition = (body: { transitions: { to: string }[] }, to: string) => body.transitions.find((x) => x.to === to);

    it("gives the back office every state's count now, and each transition's count and median time pending over 7 days", async () => {
      const { status, body } = await figuresAs('backoffice@portail.test', { days: 7 });
      expect(status).toBe(200);
      expect(body).toMatchObject({ workflowId: 'request-lifecycle', days: 7, to: new Date(clock.now()).toISOString(), from: new Date(clock.now() - 7 * DAY).toISOString() });
      expect(body.states).toEqual([
        { state: 'pending', count: 4, measure: 'now' },
        { state: 'approved', count: 5, measure: 'now' },
        { state: 'rejected', count: 2, measure: 'now' },
        { state: 'expired', count: 1, measure: 'now' },
        { state: 'cancelled', count: 2, measure: 'now' },
      ]);
      // Made within 7 days: 1, 2, 1, 3, 6, 2, 4, 1, 1 days ago.
      expect(body.started).toBe(9);
      expect(body.transitions).toEqual([
        { from: 'pending', to: 'approved', event: 'request.approve', guard: 'canDecide', count: 4, medianSeconds: 3 * 3600 },
        { from: 'pending', to: 'rejected', event: 'request.reject', guard: 'canDecide', count: 2, medianSeconds: 2 * 3600 },
        { from: 'pending', to: 'cancelled', event: 'request.cancel', guard: 'canCancel', count: 0, medianSeconds: null },
        { from: 'pending', to: 'expired', event: 'request.expire', guard: 'isDue', count: 1, medianSeconds: 30 * 24 * 3600 },
      ]);
    });

    it('counts the moves of 30 and 90 days, 30 by default', async () => {
      const thirty = (await figuresAs('backoffice@portail.test', { days: 30 })).body;
      expect(transition(thirty, 'approved')).toMatchObject({ count: 5, medianSeconds: 4 * 3600 });
      expect(thirty.started).toBe(11);
      expect((await figuresAs('backoffice@portail.test')).body).toEqual(thirty);
      const ninety = (await figuresAs('backoffice@portail.test', { days: 90 })).body;
      expect(transition(ninety, 'cancelled')).toMatchObject({ count: 1, medianSeconds: 24 * 3600 });
      expect(transition(ninety, 'expired')).toMatchObject({ count: 1 });
      expect(ninety.started).toBe(13);
    });

    it('refuses another period naming days, and an unknown machine', async () => {
      for (const days of ['15', '0', 'trente', '7.5']) {
        const { status, body } = await figuresAs('backoffice@portail.test', `days=${days}`);
        expect(status).toBe(400);
        expect([...new Set(body.fieldErrors.map((f: { field: string }) => f.field))]).toEqual(['query.days']);
      }
      const unknown = await callApi(t, { as: 'backoffice@portail.test', method: 'GET', route: ROUTE, params: { workflowId: 'session' } });
      expect(unknown.status).toBe(400);
    });

    it("gives an employer administrator the figures of 'Mes demandes' only, and refuses a person without USER_CREATE", async () => {
      const mine = (await figuresAs('admin.clinique@portail.test', { days: 90 })).body;
      expect(mine.states).toEqual([
        { state: 'pending', count: 2, measure: 'now' },
        { state: 'approved', count: 2, measure: 'now' },
        { state: 'rejected', count: 1, measure: 'now' },
        { state: 'expired', count: 0, measure: 'now' },
        { state: 'cancelled', count: 1, measure: 'now' },
      ]);
      expect(mine.started).toBe(6);
      expect(transition(mine, 'approved')).toMatchObject({ count: 2, medianSeconds: 5.5 * 3600 });
      expect(transition(mine, 'rejected')).toMatchObject({ count: 1, medianSeconds: 3 * 3600 });
      const ehpad = (await figuresAs('admin.ehpad@portail.test', { days: 7 })).body;
      expect(ehpad.states.find((s: { state: string }) => s.state === 'pending')).toEqual({ state: 'pending', count: 1, measure: 'now' });
      expect(ehpad.transitions.every((x: { count: number }) => x.count === 0)).toBe(true);
      // The read-only back office reads every request, as the invitations list.
      expect((await figuresAs('lecteur@portail.test', { days: 7 })).body.states).toEqual((await figuresAs('backoffice@portail.test', { days: 7 })).body.states);
      const refused = await figuresAs('rh.clinique@portail.test', { days: 7 });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe("Les chiffres des workflows sont réservés au back-office et aux administrateurs d'organisation (permission USER_CREATE).");
    });

    it("downloads the figures as CSV in the journal export's format: a line per state, the entries, a line per transition", async () => {
      const answer = await send(t, 'backoffice@portail.test', { method: 'GET', url: '/api/v2/workflows/request-lifecycle/figures/export?days=7' });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(answer.headers['content-disposition']).toBe('attachment; filename="request-lifecycle-7j-2026-06-15.csv"');
      const records = readCsv(answer.body as string, ['Type', 'De', 'Vers', 'Événement', 'Condition', 'Nombre', 'Durée médiane (secondes)', 'Période (jours)']);
      expect(records.slice(1)).toEqual([
        ['État', '', 'pending', '', '', '4', '', '7'],
        ['État', '', 'approved', '', '', '5', '', '7'],
        ['État', '', 'rejected', '', '', '2', '', '7'],
        ['État', '', 'expired', '', '', '1', '', '7'],
        ['État', '', 'cancelled', '', '', '2', '', '7'],
        ['Entrée', '', 'pending', '', '', '9', '', '7'],
        ['Transition', 'pending', 'approved', 'request.approve', 'canDecide', '4', '10800', '7'],
        ['Transition', 'pending', 'rejected', 'request.reject', 'canDecide', '2', '7200', '7'],
        ['Transition', 'pending', 'cancelled', 'request.cancel', 'canCancel', '0', '', '7'],
        ['Transition', 'pending', 'expired', 'request.expire', 'isDue', '1', '2592000', '7'],
      ]);
      const bad = await callApi(t, { as: 'backoffice@portail.test', method: 'GET', route: EXPORT_ROUTE, params, query: { days: 31 } });
      expect(bad.status).toBe(400);
      expect((await callApi(t, { as: 'rh.clinique@portail.test', method: 'GET', route: EXPORT_ROUTE, params, query: { days: 7 } })).status).toBe(403);
    });

    // Kept between requests (server/db/kept-answers.ts): the clock alone, or any change of the data, reads them again.
    it('follows a move leaving the period, a request entering it, and a change of the data, though they are kept', async () => {
      const read = async () => (await figuresAs('backoffice@portail.test', { days: 7 })).body;
      const first = await read();
      expect(await read()).toEqual(first);
      expect(transition(first, 'approved')).toMatchObject({ count: 4 });
      expect(first.started).toBe(9);
      // The request made 6 days ago leaves the period a day later, and its approval (4 hours after it) 4 hours after that.
      clock.advance(DAY + 1);
      expect((await read()).started).toBe(8);
      clock.advance(4 * HOUR);
      expect(transition(await read(), 'approved')).toMatchObject({ count: 3 });
      clock.advance(-(DAY + 4 * HOUR + 1));
      expect(await read()).toEqual(first);
      // A request dated an hour ahead (a node's clock ahead of this one) enters the period when the clock reaches it.
      await make([{ status: 'PENDING', madeDaysAgo: -1 / 24 }]);
      expect((await read()).started).toBe(9);
      clock.advance(HOUR + 1);
      expect((await read()).started).toBe(10);
      clock.advance(-(HOUR + 1));
      await db().deleteFrom('invitations').where('created_at', '>', new Date(clock.now())).execute();
      expect(await read()).toEqual(first);
      // A moment written alone (a data repair) is a change of the data too (migration 0034).
      const approved = await db().selectFrom('invitations').select('id').where('status', '=', 'APPROVED').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
      await db().updateTable('invitations').set({ created_at: new Date(clock.now() - 31 * DAY), processed_at: new Date(clock.now() - 30 * DAY) }).where('id', '=', approved.id).execute();
      expect(transition(await read(), 'approved')).toMatchObject({ count: 3 });
    });

    it("follows a change of a requester's organization, though their figures are kept", async () => {
      const mine = async () => (await figuresAs('admin.clinique@portail.test', { days: 90 })).body.started as number;
      const before = await mine();
      expect(before).toBeGreaterThan(0);
      expect(await mine()).toBe(before);
      // The requests name their organization by its code: under another SIREN (its establishments' SIRETs following it,
      // in one statement for their foreign key), the clinic's are no longer found.
      const recode = (from: string, to: string) =>
        sql`update organizations set code = case when id = ${orgs.clinic.id} then ${to} else ${to} || substr(code, 10) end,
              parent_code = case when parent_id = ${orgs.clinic.id} then ${to} else parent_code end
            where code = ${from} or parent_id = ${orgs.clinic.id}`.execute(db());
      await recode(orgs.clinic.code, '999999999');
      try {
        expect(await mine()).toBe(0);
      } finally {
        await recode('999999999', orgs.clinic.code);
      }
      expect(await mine()).toBe(before);
    });
  });
}
