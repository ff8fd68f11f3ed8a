// Issue 24 through the API: the account lifecycle's figures on a data set of known counts and times (accounts and
// journal entries dated against a fake clock), the scope of each persona, and the CSV file. The demo's accounts are
// there too: the counts now are compared with those read before the data set was added; the demo's journal is
// dated by the real clock, after the fake one, so that no move of the demo falls in a period.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAudit } from '../../../server/features/audit/audit.repository.ts';
import { userAuditEntry } from '../../../server/features/users/users.model.ts';
import { readAccountFiguresChange } from '../../../server/features/workflows/account-figures.repository.ts';
import type { AuditAction, JsonValue } from '../../../server/db/schema.ts';
import { backends } from '../db/test-databases.ts';
import { callApi, send } from '../support/api.ts';
import { readCsv } from '../support/csv.ts';
import { fakeClock } from '../support/fake-clock.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { organizationByName } from '../support/invitations.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const DAYS = 24 * 3600;
const ROUTE = '/api/v2/workflows/{workflowId}/figures' as const;
const params = { workflowId: 'account-lifecycle' };

type Org = 'clinic' | 'ehpad';
interface Account {
  on: Org;
  createdDaysAgo: number;
  isActive?: boolean;
  lastLoginDaysAgo?: number;
  warnedDaysAgo?: number;
  systemDeactivatedDaysAgo?: number;
  reactivatedDaysAgo?: number;
  /** A back-office account (holding a role on `on` all the same). */
  backOffice?: boolean;
}
type Figures = { states: { state: string; count: number; measure: string }[]; transitions: { from: string; to: string; guard: string | null; count: number | null; medianSeconds: number | null }[]; started: number };

for (const backend of backends) {
  describe(`the account lifecycle's figures on ${backend.name}`, () => {
    const clock = fakeClock(Date.parse('2026-06-15T10:00:00Z'));
    let t: TestApp;
    let backoffice: { userId: string; email: string };
    let orgs: Record<Org, string>;
    let roleId: number;
    const before: Record<string, Figures> = {};

    const db = () => t.database.handle.db;
    const ago = (days: number) => new Date(clock.now() - days * DAY);
    const figuresAs = (as: string, days = 7) => callApi(t, { as, method: 'GET', route: ROUTE, params, query: { days } });

    /** An account of the data set (its row and its assignment), answering its id. */
    async function account(a: Account): Promise<string> {
      const email = `compte.${randomUUID().slice(0, 8)}@exemple-test.fr`;
      const row = await db()
        .insertInto('users')
        .values({
          email,
          first_name: 'Chiffre',
          last_name: 'Compte',
          user_type: a.backOffice ? 'BACKOFFICE' : 'ORGANIZATION',
          is_active: a.isActive ?? true,
          created_at: ago(a.createdDaysAgo),
          last_login_at: a.lastLoginDaysAgo === undefined ? null : ago(a.lastLoginDaysAgo),
          dormancy_warned_at: a.warnedDaysAgo === undefined ? null : ago(a.warnedDaysAgo),
          dormancy_deactivated_at: a.systemDeactivatedDaysAgo === undefined ? null : ago(a.systemDeactivatedDaysAgo),
          reactivated_at: a.reactivatedDaysAgo === undefined ? null : ago(a.reactivatedDaysAgo),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db().insertInto('role_assignments').values({ user_id: row.id, organization_id: orgs[a.on], role_id: roleId }).execute();
      return row.id;
    }

    /** A journal entry about account `id` of `on`, `daysAgo` days ago, by the back office, the portal ('Système') or the person. */
    async function journal(id: string, on: Org, action: AuditAction, daysAgo: number, by: 'person' | 'system' | 'self' = 'person', changes: Record<string, JsonValue> = {}) {
      const author = by === 'system' ? { userId: null, email: null, isSystem: true as const } : by === 'self' ? { userId: id, email: 'compte@exemple-test.fr' } : backoffice;
      const entry = userAuditEntry(author, { id, first_name: 'Chiffre', last_name: 'Compte', email: 'compte@exemple-test.fr' }, [{ organizationId: orgs[on] }]);
      await writeAudit(db(), { ...entry, action, changes });
      const { id: auditId } = await db().selectFrom('audit_log').select('id').where('entity_id', '=', id).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
      await db().updateTable('audit_log').set({ at: ago(daysAgo) }).where('id', '=', auditId).execute();
      await db().updateTable('audit_log_organizations').set({ at: ago(daysAgo) }).where('audit_id', '=', auditId).execute();
    }

    beforeAll(async () => {
      t = await startTestApp(backend, { jobClock: clock, runJobs: false });
      const bo = await db().selectFrom('users').select(['id', 'email']).where('email', '=', 'backoffice@portail.test').executeTakeFirstOrThrow();
      backoffice = { userId: bo.id, email: bo.email };
      orgs = { clinic: (await organizationByName(t, 'Clinique des Tilleuls')).id, ehpad: (await organizationByName(t, 'EHPAD Les Glycines')).id };
      roleId = (await db().selectFrom('roles').select('id').where('code', '<>', 'ADMIN_ADHERENT').orderBy('id').limit(1).executeTakeFirstOrThrow()).id;
      for (const as of ['backoffice@portail.test', 'admin.clinique@portail.test', 'admin.ehpad@portail.test']) before[as] = (await figuresAs(as)).body;

      // A: created 3 days ago, active.
      await journal(await account({ on: 'clinic', createdDaysAgo: 3 }), 'clinic', 'user.create', 3);
      // B: warned 2 days ago, 365 days after its latest sign-in.
      await account({ on: 'clinic', createdDaysAgo: 500, lastLoginDaysAgo: 367, warnedDaysAgo: 2 });
      // C: warned 40 days ago (365 days after its sign-in), deactivated by the portal 5 days ago (35 days warned).
      const c = await account({ on: 'clinic', createdDaysAgo: 800, lastLoginDaysAgo: 405, warnedDaysAgo: 40, systemDeactivatedDaysAgo: 5, isActive: false });
      await journal(c, 'clinic', 'user.deactivate', 5, 'system');
      // D: created 20 days ago, deactivated by a person 2 days ago (18 days active).
      const d = await account({ on: 'clinic', createdDaysAgo: 20, isActive: false });
      await journal(d, 'clinic', 'user.create', 20);
      await journal(d, 'clinic', 'user.deactivate', 2);
      // E: deactivated 10 days ago (created before the journal), reactivated 1 day ago (9 days deactivated).
      const e = await account({ on: 'clinic', createdDaysAgo: 700, reactivatedDaysAgo: 1 });
      await journal(e, 'clinic', 'user.deactivate', 10);
      await journal(e, 'clinic', 'user.reactivate', 1);
      // F: deactivated by the portal 370 days ago, deleted by it 3 days ago (367 days deactivated): gone.
      const f = randomUUID();
      await journal(f, 'clinic', 'user.deactivate', 370, 'system');
      await journal(f, 'clinic', 'user.delete', 3, 'system');
      // G: created 6 days ago, deleted by a person 1 day ago (5 days active): gone.
      const g = randomUUID();
      await journal(g, 'clinic', 'user.create', 6);
      await journal(g, 'clinic', 'user.delete', 1);
      // I: warned 20 days ago (380 days after its sign-in), deactivated by a person 3 days ago, keeping its warning (17 days warned).
      const i = await account({ on: 'clinic', createdDaysAgo: 600, lastLoginDaysAgo: 400, warnedDaysAgo: 20, isActive: false });
      await journal(i, 'clinic', 'user.deactivate', 3);
      // H, on the EHPAD: created 2 days ago, deactivated by a person 1 day ago.
      const h = await account({ on: 'ehpad', createdDaysAgo: 2, isActive: false });
      await journal(h, 'ehpad', 'user.create', 2);
      await journal(h, 'ehpad', 'user.deactivate', 1);
      // J: warned 12 days ago, signed in 2 days ago, ending the warning (10 days warned): active.
      const warning = (daysAgo: number) => ({ dormancyWarnedAt: { before: ago(daysAgo).toISOString(), after: null } });
      const j = await account({ on: 'clinic', createdDaysAgo: 900, lastLoginDaysAgo: 2 });
      await journal(j, 'clinic', 'user.dormancy.end', 2, 'self', warning(12));
      // K: warned 30 days ago, signed in 1 day ago (29 days warned): active.
      const k = await account({ on: 'clinic', createdDaysAgo: 900, lastLoginDaysAgo: 1 });
      await journal(k, 'clinic', 'user.dormancy.end', 1, 'self', warning(30));
      // L: warned 8 days ago, deleted by a person 1 day ago (7 days warned): gone.
      const l = randomUUID();
      await journal(l, 'clinic', 'user.delete', 1, 'person', warning(8));
      // M: a back-office account holding a role on the clinic, deactivated by a person 1 day ago: in the back
      // office's figures, not in the clinic administrator's (their users list leaves it out).
      const m = await account({ on: 'clinic', createdDaysAgo: 900, isActive: false, backOffice: true });
      await journal(m, 'clinic', 'user.deactivate', 1);
      // Q: warned 6 days ago, deactivated by a person 5 days ago (1 day warned), reactivated 4 days ago (1 day
      // deactivated), the reactivation recording the warning it cleared: active, its row holding no warning.
      const q = await account({ on: 'clinic', createdDaysAgo: 900, lastLoginDaysAgo: 371, reactivatedDaysAgo: 4 });
      await journal(q, 'clinic', 'user.deactivate', 5);
      await journal(q, 'clinic', 'user.reactivate', 4, 'person', warning(6));
      // N: a back-office account holding a role on the clinic, deleted by a person 1 day ago: the same.
      await journal(randomUUID(), 'clinic', 'user.delete', 1, 'person', { userType: { before: 'BACKOFFICE', after: null } });
    });
    afterAll(async () => {
      await t?.close();
    });

    const added = (as: string, now: Figures) => Object.fromEntries(now.states.map((s, i) => [s.state, s.measure === 'now' ? s.count - before[as]!.states[i]!.count : s.count]));
    const moves = (body: Figures) => body.transitions.map((x) => [x.from, x.to, x.guard, x.count, x.medianSeconds]);

    it("gives the back office every account's state now, the deletions and every move of 7 days with the median time before it", async () => {
      const { status, body } = await figuresAs('backoffice@portail.test');
      expect(status).toBe(200);
      expect(body.states.map((s: { state: string; measure: string }) => [s.state, s.measure])).toEqual([
        ['active', 'now'],
        ['dormantWarned', 'now'],
        ['deactivated', 'now'],
        ['deleted', 'period'],
      ]);
      expect(added('backoffice@portail.test', body)).toEqual({ active: 5, dormantWarned: 1, deactivated: 5, deleted: 4 });
      // Created within 7 days: A, G, H.
      expect(body.started).toBe(3);
      expect(moves(body)).toEqual([
        // B (365 days), on record; Q's, ended by its reactivation (not timed).
        ['active', 'dormantWarned', 'isWarningDue', 2, 365 * DAYS],
        // D (18 days), H (1 day) and M, whose creation the journal does not hold (no time).
        ['active', 'deactivated', 'isPersonMove', 3, 9.5 * DAYS],
        // G (5 days) and N, whose creation the journal does not hold.
        ['active', 'deleted', 'isPersonMove', 2, 5 * DAYS],
        // J (10 days warned) and K (29 days).
        ['dormantWarned', 'active', null, 2, 19.5 * DAYS],
        // I (17 days warned, the row still says so) and Q (1 day, its reactivation's entry says so).
        ['dormantWarned', 'deactivated', 'isPersonMove', 2, 9 * DAYS],
        ['dormantWarned', 'deactivated', 'canSystemDeactivate', 1, 35 * DAYS],
        // L (7 days warned), not counted on active → deleted too.
        ['dormantWarned', 'deleted', 'isPersonMove', 1, 7 * DAYS],
        // E (9 days) and Q (1 day).
        ['deactivated', 'active', null, 2, 5 * DAYS],
        ['deactivated', 'deleted', 'isPersonMove', 0, null],
        ['deactivated', 'deleted', 'canSystemDelete', 1, 367 * DAYS],
      ]);
    });

    it('counts the moves of 30 and 90 days', async () => {
      const thirty: Figures = (await figuresAs('backoffice@portail.test', 30)).body;
      // D (18 days), H (1 day), and E and M, whose creation the journal does not hold (no time).
      expect(thirty.transitions[1]).toMatchObject({ count: 4, medianSeconds: 9.5 * DAYS });
      // The warnings of 30 days: B (365 days) and I (380 days), still on record; J (12 days ago), K (30 days ago, the
      // period's first moment), L (8) and Q (6), ended since by a sign-in, a deletion or a reactivation, counted from
      // their entries (not timed).
      expect(thirty.transitions[0]).toMatchObject({ count: 6, medianSeconds: 372.5 * DAYS });
      expect(thirty.started).toBe(4);
      const ninety: Figures = (await figuresAs('backoffice@portail.test', 90)).body;
      // B, I and C on record; J, K, L and Q ended.
      expect(ninety.transitions[0]).toMatchObject({ count: 7, medianSeconds: 365 * DAYS });
    });

    it("gives an employer administrator the accounts of their users list and the moves of their organizations' accounts only", async () => {
      const clinic: Figures = (await figuresAs('admin.clinique@portail.test')).body;
      expect(added('admin.clinique@portail.test', clinic)).toEqual({ active: 5, dormantWarned: 1, deactivated: 3, deleted: 3 });
      expect(clinic.started).toBe(2);
      // D alone: neither H (the EHPAD's) nor M (a back-office account, not in their users list); G, not N.
      expect(clinic.transitions[1]).toMatchObject({ count: 1, medianSeconds: 18 * DAYS });
      expect(clinic.transitions[2]).toMatchObject({ count: 1, medianSeconds: 5 * DAYS });
      expect(clinic.transitions.filter((x) => x.from === 'dormantWarned' && x.guard !== 'canSystemDeactivate').map((x) => [x.to, x.count])).toEqual([
        ['active', 2],
        // I and Q.
        ['deactivated', 2],
        ['deleted', 1],
      ]);
      const ehpad: Figures = (await figuresAs('admin.ehpad@portail.test')).body;
      expect(added('admin.ehpad@portail.test', ehpad)).toEqual({ active: 0, dormantWarned: 0, deactivated: 1, deleted: 0 });
      expect(ehpad.started).toBe(1);
      expect(moves(ehpad).filter((m) => m[3])).toEqual([['active', 'deactivated', 'isPersonMove', 1, 1 * DAYS]]);
      // The read-only back office reads every account; a person without USER_CREATE nothing.
      expect((await figuresAs('lecteur@portail.test')).body.states).toEqual((await figuresAs('backoffice@portail.test')).body.states);
      expect((await figuresAs('rh.clinique@portail.test')).status).toBe(403);
    });

    it('keeps the figures only until an ended warning leaves the period, at its own moment (before its entry does)', async () => {
      // 30 days: the earliest of the period is K's warning, ended by a sign-in 1 day ago (an entry D's creation of 20
      // days ago, the warnings on record I's of 20 days ago): the figures change when it leaves, 30 days after it.
      const to = new Date(clock.now());
      const from = ago(30);
      expect(await readAccountFiguresChange(db(), from, to)).toEqual(new Date(from.getTime() + 30 * DAY));
    });

    it('refuses another period naming days', async () => {
      const { status, body } = await callApi(t, { as: 'backoffice@portail.test', method: 'GET', route: ROUTE, params, query: 'days=14' });
      expect(status).toBe(400);
      expect(body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['query.days']);
    });

    it('downloads the figures as CSV: the deletions as a state of the period, the sign-ins that ended a warning', async () => {
      const answer = await send(t, 'backoffice@portail.test', { method: 'GET', url: '/api/v2/workflows/account-lifecycle/figures/export?days=7' });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-disposition']).toBe('attachment; filename="account-lifecycle-7j-2026-06-15.csv"');
      const records = readCsv(answer.body as string, ['Type', 'De', 'Vers', 'Événement', 'Condition', 'Nombre', 'Durée médiane (secondes)', 'Période (jours)']);
      expect(records[4]).toEqual(['État (période)', '', 'deleted', '', '', '4', '', '7']);
      expect(records[5]).toEqual(['Entrée', '', 'active', '', '', '3', '', '7']);
      expect(records[9]).toEqual(['Transition', 'dormantWarned', 'active', 'account.signIn', '', '2', String(19.5 * DAYS), '7']);
      expect(records[11]).toEqual(['Transition', 'dormantWarned', 'deactivated', 'account.deactivate', 'canSystemDeactivate', '1', String(35 * DAYS), '7']);
    });

    // Kept between requests (server/db/kept-answers.ts): the clock alone, or any change of the data, reads them again.
    it('follows an entry leaving the period, one entering it, and a warning written, though they are kept', async () => {
      const read = async (): Promise<Figures> => (await figuresAs('backoffice@portail.test')).body;
      const first = await read();
      expect(await read()).toEqual(first);
      expect(first.started).toBe(3);
      // G's creation, 6 days ago, leaves the 7 days a day later.
      clock.advance(DAY + 1);
      expect((await read()).started).toBe(2);
      clock.advance(-(DAY + 1));
      expect(await read()).toEqual(first);
      // A creation dated an hour ahead (a node's clock ahead of this one) enters the period when the clock reaches it.
      const ahead = await account({ on: 'clinic', createdDaysAgo: 0 });
      await journal(ahead, 'clinic', 'user.create', -1 / 24);
      expect((await read()).started).toBe(3);
      clock.advance(HOUR + 1);
      expect((await read()).started).toBe(4);
      clock.advance(-(HOUR + 1));
      // A warning moves only the dormancy version (migration 0033).
      const kept = await read();
      await db().updateTable('users').set({ dormancy_warned_at: ago(1) }).where('id', '=', ahead).execute();
      expect((await read()).transitions[0]!.count).toBe(kept.transitions[0]!.count! + 1);
      await db().updateTable('users').set({ dormancy_warned_at: null }).where('id', '=', ahead).execute();
      // The end of a warning, a journal entry alone, moves the journal's version.
      const unwarned = await read();
      await journal(ahead, 'clinic', 'user.dormancy.end', 1 / 24, 'self', { dormancyWarnedAt: { before: ago(3).toISOString(), after: null } });
      expect((await read()).transitions[3]).toMatchObject({ from: 'dormantWarned', to: 'active', count: unwarned.transitions[3]!.count! + 1 });
      await sql`delete from audit_log where entity_id = ${ahead}`.execute(db());
      await db().deleteFrom('role_assignments').where('user_id', '=', ahead).execute();
      await db().deleteFrom('users').where('id', '=', ahead).execute();
      expect(await read()).toEqual(first);
    });

    describe("while the copy of the journal's actions beside their organizations is not through (migration 0028's backfill)", () => {
      beforeAll(async () => {
        // A fresh app, asked nothing yet: the copy's state is read again.
        await t.close();
        t = await startTestApp(backend, { jobClock: clock, runJobs: false });
        await sql`update audit_backfills set done_through = 0, upto = 1000000000 where name = 'organization_action'`.execute(db());
      });

      it("counts an employer administrator's moves from the entries themselves", async () => {
        const baseline: Figures = (await figuresAs('admin.clinique@portail.test')).body;
        const gone = randomUUID();
        await journal(gone, 'clinic', 'user.delete', 2, 'system');
        await db().updateTable('audit_log_organizations').set({ action: null }).where('audit_id', '=', db().selectFrom('audit_log').select('id').where('entity_id', '=', gone)).execute();
        const now: Figures = (await figuresAs('admin.clinique@portail.test')).body;
        expect(now.states[3]!.count - baseline.states[3]!.count).toBe(1);
      });
    });
  });
}
