// Issue 24, the account lifecycle's last moves on record: a sign-in that ends a dormancy warning is a journal entry
// 'user.dormancy.end' by the person (its changes keep the warning's moment), filed under their organizations, written
// with the sign-in; a sign-in of an account not warned writes nothing and costs its one statement, as before. A
// person's permanent delete of a warned account records the warning in its entry (and of a back-office account, its type).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { StatementCounter } from './support/statement-counter.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, PERSONAS, startUsersApp, type DemoOrganizations } from './support/users-api.ts';

const DAY = 24 * 3600_000;
const WARNED_AT = new Date('2026-10-11T22:30:00.000Z'); // 12 October 2026 in Paris

for (const backend of backends) {
  describe(`a sign-in that ends a dormancy warning, and a deletion of a warned account, on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations;
    const counter = new StatementCounter();
    const db = () => t.database.handle.db;
    beforeAll(async () => {
      // Without the API rate limit: its one statement per request is not the sign-in's, which this file counts.
      ({ t, orgs } = await startUsersApp(backend, { wrapDatabase: counter.wrap, env: { API_RATE_LIMIT_PER_MINUTE: '0' } }));
    }, 300_000);
    afterAll(() => t?.close());

    /** A clinic's employee who last signed in 400 days ago, warned at `warnedAt` (null: not warned). */
    async function sleeper(warnedAt: Date | null) {
      const made = await fixtures(db()).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE' });
      await db().updateTable('users').set({ last_login_at: new Date(Date.now() - 400 * DAY), dormancy_warned_at: warnedAt }).where('id', '=', made.id).execute();
      return made;
    }
    /** The person opens the portal with a token of a sign-in `secondsAgo` seconds ago. */
    async function signIn(email: string, secondsAgo = 0) {
      const at = Math.floor(Date.now() / 1000) - secondsAgo;
      const token = await t.tokenFor(email, { auth_time: at });
      const answer = await t.app.inject({ method: 'GET', url: '/api/v2/users/me', headers: { authorization: `Bearer ${token}` } });
      expect(answer.statusCode).toBe(200);
    }
    const entriesAbout = (id: string) =>
      db().selectFrom('audit_log').select(['id', 'action', 'actor_id', 'changes', 'organization_id']).where('entity_type', '=', 'user').where('entity_id', '=', id).orderBy('id').execute();
    const journal = async (as: string) =>
      (await callApi(t, { as, method: 'GET', route: '/api/v2/audit', query: { action: 'user.dormancy.end', pageSize: 100 } })).body as { items: { subject: { id: string }; sentence: string; actorName: string }[] };

    it('writes one entry by the person, with the warning it ended, under their organizations; a later sign-in none', async () => {
      const person = await sleeper(WARNED_AT);
      await signIn(person.email, 60);
      const row = await db().selectFrom('users').select(['dormancy_warned_at', 'last_login_at']).where('id', '=', person.id).executeTakeFirstOrThrow();
      expect(row.dormancy_warned_at).toBeNull();
      const entries = await entriesAbout(person.id);
      expect(entries.map((e) => [e.action, e.actor_id, e.changes, e.organization_id])).toEqual([
        ['user.dormancy.end', person.id, { dormancyWarnedAt: { before: WARNED_AT.toISOString(), after: null } }, orgs.cliniqueSirets[0]!.id],
      ]);
      const copied = await db().selectFrom('audit_log_organizations').select(['organization_id', 'action']).where('audit_id', '=', entries[0]!.id).execute();
      expect(copied).toEqual([{ organization_id: orgs.cliniqueSirets[0]!.id, action: 'user.dormancy.end' }]);
      // A newer sign-in of the account, no longer warned: nothing more.
      await signIn(person.email);
      expect(await entriesAbout(person.id)).toHaveLength(1);
    });

    it('reads as a sentence in the journal filtered by its action, for the back office and the employer administrator in scope only', async () => {
      const person = await sleeper(WARNED_AT);
      await signIn(person.email);
      const { first_name, last_name } = await db().selectFrom('users').select(['first_name', 'last_name']).where('id', '=', person.id).executeTakeFirstOrThrow();
      const name = `${first_name} ${last_name}`;
      const expected = `${name} a levé l'avertissement d'inactivité du 12 octobre 2026 en se connectant.`;
      for (const as of [PERSONAS.backoffice, PERSONAS.adminClinique]) {
        const found = (await journal(as)).items.filter((e) => e.subject.id === person.id);
        expect(found.map((e) => [e.sentence, e.actorName])).toEqual([[expected, name]]);
      }
      expect((await journal(PERSONAS.adminEhpad)).items.filter((e) => e.subject.id === person.id)).toEqual([]);
    });

    it('writes no end of a warning for the sign-in of a deactivated account that was warned: it stays deactivated, its warning kept', async () => {
      // A deactivation keeps the warning (account-figures.repository.ts reads it to tell dormantWarned -> deactivated);
      // the account-lifecycle machine's account.signIn leaves dormantWarned only, and the profile answers an inactive person too.
      const person = await sleeper(WARNED_AT);
      await db().updateTable('users').set({ is_active: false }).where('id', '=', person.id).execute();
      await signIn(person.email);
      const row = await db().selectFrom('users').select(['is_active', 'dormancy_warned_at']).where('id', '=', person.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ is_active: false, dormancy_warned_at: WARNED_AT });
      expect(await entriesAbout(person.id)).toEqual([]);
    });

    it('writes one entry when two sign-ins of a warned account arrive at once', async () => {
      const person = await sleeper(WARNED_AT);
      await Promise.all([signIn(person.email, 30), signIn(person.email, 20), signIn(person.email, 10)]);
      expect((await entriesAbout(person.id)).map((e) => e.action)).toEqual(['user.dormancy.end']);
    });

    it('writes nothing for the sign-in of an account not warned, in one statement, as before', async () => {
      const person = await sleeper(null);
      // Nothing to record (a sign-in not newer than the last one known): the request's own statements.
      await db().updateTable('users').set({ last_login_at: new Date() }).where('id', '=', person.id).execute();
      const base = await counter.during(() => signIn(person.email, 3600));
      await db().updateTable('users').set({ last_login_at: new Date(Date.now() - 400 * DAY) }).where('id', '=', person.id).execute();
      expect(await counter.during(() => signIn(person.email))).toBe(base + 1);
      expect(await entriesAbout(person.id)).toEqual([]);
      // A warned account's sign-in costs more: it is recorded.
      const warned = await sleeper(WARNED_AT);
      expect(await counter.during(() => signIn(warned.email))).toBeGreaterThan(base + 1);
    });

    it('records the warning a reactivation clears, and none when the account was not warned or is deactivated', async () => {
      const warned = await sleeper(WARNED_AT);
      const unwarned = await sleeper(null);
      for (const id of [warned.id, unwarned.id]) {
        expect((await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id } })).status).toBe(200);
        expect((await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/reactivate', params: { id } })).status).toBe(200);
      }
      const [deactivation, reactivation] = await entriesAbout(warned.id);
      expect(deactivation).toMatchObject({ action: 'user.deactivate', changes: { isActive: { before: true, after: false } } });
      expect(deactivation!.changes).not.toHaveProperty('dormancyWarnedAt');
      expect(reactivation).toMatchObject({ action: 'user.reactivate', changes: { isActive: { before: false, after: true }, dormancyWarnedAt: { before: WARNED_AT.toISOString(), after: null } } });
      const other = await entriesAbout(unwarned.id);
      expect(other.map((e) => e.action)).toEqual(['user.deactivate', 'user.reactivate']);
      expect(other[1]!.changes).not.toHaveProperty('dormancyWarnedAt');
      expect((await db().selectFrom('users').select('dormancy_warned_at').where('id', '=', warned.id).executeTakeFirstOrThrow()).dormancy_warned_at).toBeNull();
    });

    it("records the warning in a person's permanent delete of a warned account, nothing in an unwarned one's, and a back-office account's type", async () => {
      const warned = await sleeper(WARNED_AT);
      const unwarned = await sleeper(null);
      const backOffice = await sleeper(null);
      await db().updateTable('users').set({ user_type: 'BACKOFFICE' }).where('id', '=', backOffice.id).execute();
      for (const id of [warned.id, unwarned.id, backOffice.id]) {
        expect((await callApi(t, { as: PERSONAS.backoffice, method: 'DELETE', route: '/api/v2/users/{id}', params: { id }, query: { hardDelete: true } })).status).toBe(204);
      }
      const [deletion] = await entriesAbout(warned.id);
      expect(deletion).toMatchObject({ action: 'user.delete', changes: { dormancyWarnedAt: { before: WARNED_AT.toISOString(), after: null } } });
      const [other] = await entriesAbout(unwarned.id);
      expect(other!.action).toBe('user.delete');
      expect(other!.changes).not.toHaveProperty('dormancyWarnedAt');
      expect(other!.changes).not.toHaveProperty('userType');
      const [ofBackOffice] = await entriesAbout(backOffice.id);
      expect(ofBackOffice).toMatchObject({ action: 'user.delete', changes: { userType: { before: 'BACKOFFICE', after: null } } });
    });
  });
}
