// Attacks on whom an action on many users reaches (issue 22's batches, the account states of issues 23 and 24;
// second security review): the back office's accounts and another company's people slipped into an employer
// administrator's job are refused without being named, by batch and one by one; a person of two companies, an
// administrator and the starter are refused; a selection by an account state holds only the people the starter
// lists, whoever the starter is (a person holding a role in two companies too); a starter moved to another company
// before the job runs acts on nobody of the first and names none of them; a reactivation on many users restarts
// the dormancy clock as the single action does (else the account stays 'dormant' and the next hour's job
// deactivates it again).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../server/core/policy.ts';
import { USER_NOT_FOUND } from '../../server/features/users/users.policy.ts';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { send } from './support/api.ts';
import { callApi, PERSONAS, userIdOf, usersAppFor } from './support/users-api.ts';

const DAY = 24 * 3600_000;
type Refusal = { userId: string; name: string; email: string; reason: string };

for (const backend of backends) {
  describe(`whom an action on many users reaches, on ${backend.name}`, () => {
    const { app, db } = usersAppFor(backend, { bulkBatches: { batchSize: 50 } });
    const f = () => fixtures(db());
    const start = (as: string, payload: object) => callApi(app.t, { as, method: 'POST', route: '/api/v2/users/bulk-actions', payload });
    const progress = async (as: string, id: string) => {
      const read = await callApi(app.t, { as, method: 'GET', route: '/api/v2/users/bulk-actions/{id}', params: { id } });
      expect(read.status).toBe(200);
      return read.body as { status: string; succeeded: number; refusals: Refusal[] };
    };
    const targets = async (id: string) =>
      (await db().selectFrom('bulk_action_targets').select('user_id').where('bulk_action_id', '=', id).execute()).map((r) => r.user_id).sort();
    const states = async (ids: string[]) => {
      const rows = await db().selectFrom('users').select(['id', 'is_active', 'invitation_sent_at']).where('id', 'in', ids).execute();
      return ids.map((id) => rows.find((r) => r.id === id));
    };
    const clinicUser = () => f().user({ organizationId: app.orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE' });
    const ehpadUser = () => f().user({ organizationId: app.orgs.ehpadSirets[0]!.id, roleCode: 'COMPTABLE' });
    /** A person of the clinic who also holds a role in the EHPAD. */
    async function twoCompanies() {
      const person = await clinicUser();
      await db()
        .insertInto('role_assignments')
        .values({ user_id: person.id, organization_id: app.orgs.ehpadSirets[0]!.id, role_id: (await f().role('COMPTABLE')).id, inherits_to_children: false })
        .execute();
      return person;
    }
    /** The EHPAD's administrator who also holds COMPTABLE (no permission) on the clinic's first establishment (the matrix's deux.societes). */
    async function deuxSocietes() {
      const person = await f().user({ organizationId: app.orgs.ehpad.id, roleCode: 'ADMIN_ADHERENT', inherits: true, email: `deux.societes.${randomUUID().slice(0, 6)}@exemple-test.fr` });
      await db()
        .insertInto('role_assignments')
        .values({ user_id: person.id, organization_id: app.orgs.cliniqueSirets[0]!.id, role_id: (await f().role('COMPTABLE')).id, inherits_to_children: false })
        .execute();
      return person;
    }
    const forgetJobs = () => db().deleteFrom('bulk_actions').execute();

    for (const action of ['deactivate', 'resendInvitation'] as const) {
      it(`refuses, naming none of them, the back office and another company's people in an employer administrator's ${action} job; the others by the single action's rules`, async () => {
        const backOffice = await userIdOf(app.t, PERSONAS.lecteur);
        const [ehpad, both, administrator, done] = [await ehpadUser(), await twoCompanies(), await f().user({ organizationId: app.orgs.clinique.id, roleCode: 'ADMIN_ADHERENT', inherits: true }), await clinicUser()];
        const self = await userIdOf(app.t, PERSONAS.adminClinique);
        const unknown = randomUUID();
        const ids = [backOffice, ehpad.id, unknown, both.id, administrator.id, self, done.id];
        const before = await states(ids.filter((id) => id !== unknown));
        const started = await start(PERSONAS.adminClinique, { action, userIds: ids });
        expect(started.status).toBe(202);
        await app.t.app.bulkActions.drain();
        const report = await progress(PERSONAS.adminClinique, started.body.id);
        expect(report.succeeded).toBe(1);
        expect(report.refusals.map((r) => [r.userId, r.reason, r.name, r.email])).toEqual([
          // Out of reach: refused as a missing person is, their name and address not told.
          [backOffice, USER_NOT_FOUND, '', ''],
          [ehpad.id, USER_NOT_FOUND, '', ''],
          [unknown, USER_NOT_FOUND, '', ''],
          // Within reach but not theirs to change: named, as the list names them.
          [both.id, MESSAGES.protectedTarget, expect.stringContaining('Test Utilisateur'), both.email],
          [administrator.id, MESSAGES.protectedTarget, expect.stringContaining('Test Utilisateur'), administrator.email],
          [self, MESSAGES.self, expect.any(String), PERSONAS.adminClinique],
        ]);
        // Nobody refused changed (active, no new link).
        expect(await states(ids.filter((id) => id !== unknown && id !== done.id))).toEqual(before.filter((row) => row!.id !== done.id));
        const mails = await db().selectFrom('outbox').select('recipient').where('recipient', 'in', [ehpad.email, both.email, administrator.email]).execute();
        expect(mails).toEqual([]);
      });
    }

    it('selects by an account state only the people the starter may list, whoever starts it (a person of two companies too)', async () => {
      await forgetJobs();
      const lecteur = await userIdOf(app.t, PERSONAS.lecteur);
      type Person = { id: string; email: string };
      const made: Record<string, { clinic: Person; ehpad: Person }> = {};
      const setAs = async (clinic: Person, ehpad: Person, set: Record<string, unknown>) => {
        await db().updateTable('users').set(set).where('id', 'in', [clinic.id, ehpad.id]).execute();
        return { clinic, ehpad };
      };
      made.dormant = await setAs(await clinicUser(), await ehpadUser(), { dormancy_warned_at: new Date(Date.now() - DAY), last_login_at: new Date(Date.now() - 400 * DAY) });
      made.invitationNotAccepted = await setAs(await clinicUser(), await ehpadUser(), { invitation_sent_at: new Date(Date.now() - DAY), last_login_at: null });
      made.setupLinkExpired = await setAs(await clinicUser(), await ehpadUser(), { invitation_sent_at: new Date(Date.now() - 30 * DAY), last_login_at: null });
      // A back-office account, dormant: in no organization user's selection.
      await db().updateTable('users').set({ dormancy_warned_at: new Date(Date.now() - DAY) }).where('id', '=', lecteur).execute();
      const deux = await deuxSocietes();
      const starters = [
        { as: PERSONAS.adminClinique, theirs: 'clinic' as const },
        { as: PERSONAS.adminEhpad, theirs: 'ehpad' as const },
        // Lists the EHPAD's users only: COMPTABLE gives no right on the clinic.
        { as: deux.email, theirs: 'ehpad' as const },
      ];
      try {
        for (const { as, theirs } of starters) {
          for (const [accountState, people] of Object.entries(made)) {
            const started = await start(as, { action: 'deactivate', filters: { accountState, includeInactive: true } });
            expect(started.status, `${as} ${accountState}`).toBe(202);
            const selected = await targets(started.body.id);
            const listed = await callApi(app.t, { as, method: 'GET', route: '/api/v2/users', query: { accountState, includeInactive: true, pageSize: 100 } });
            expect(selected, `${as} ${accountState}`).toEqual((listed.body.items as { id: string }[]).map((u) => u.id).sort());
            const other = people[theirs === 'clinic' ? 'ehpad' : 'clinic'];
            expect(selected, `${as} ${accountState}`).toContain(people[theirs].id);
            expect(selected, `${as} ${accountState}`).not.toContain(other.id);
            expect(selected, `${as} ${accountState}`).not.toContain(lecteur);
            await forgetJobs();
            // The list's export in that state: the same reach.
            const file = await send(app.t, as, { method: 'GET', url: `/api/v2/users/export?accountState=${accountState}&includeInactive=true` });
            expect(file.status, `${as} ${accountState}`).toBe(200);
            expect(String(file.body), `${as} ${accountState}`).toContain(people[theirs].email);
            expect(String(file.body), `${as} ${accountState}`).not.toContain(other.email);
            expect(String(file.body), `${as} ${accountState}`).not.toContain(PERSONAS.lecteur);
          }
        }
        // The company where they hold no right is not a filter they may use (404, as an unknown one).
        const other = await start(deux.email, { action: 'deactivate', filters: { organizationId: app.orgs.cliniqueSirets[0]!.id, accountState: 'dormant' } });
        expect(other.status).toBe(404);
        // The back office's own selection holds every company's.
        const all = await start(PERSONAS.backoffice, { action: 'deactivate', filters: { accountState: 'dormant' } });
        expect(await targets(all.body.id)).toEqual(expect.arrayContaining([made.dormant!.clinic.id, made.dormant!.ehpad.id, lecteur]));
      } finally {
        await forgetJobs();
        await db().updateTable('users').set({ dormancy_warned_at: null }).where('id', '=', lecteur).execute();
      }
    });

    for (const action of ['deactivate', 'resendInvitation'] as const) {
      it(`acts on nobody of their former company, and names none of them, when the starter of a ${action} job moves to another company before it runs`, async () => {
        const starter = await f().user({ organizationId: app.orgs.clinique.id, roleCode: 'ADMIN_ADHERENT', inherits: true });
        const people = [await clinicUser(), await clinicUser()];
        const before = await states(people.map((p) => p.id));
        const started = await start(starter.email, { action, userIds: people.map((p) => p.id) });
        expect(started.status).toBe(202);
        await db().updateTable('role_assignments').set({ organization_id: app.orgs.ehpad.id }).where('user_id', '=', starter.id).execute();
        await app.t.app.bulkActions.drain();
        const report = await progress(starter.email, started.body.id);
        expect(report.succeeded).toBe(0);
        expect(report.refusals.map((r) => [r.userId, r.reason, r.name, r.email])).toEqual(people.map((p) => [p.id, USER_NOT_FOUND, '', '']));
        expect(await states(people.map((p) => p.id))).toEqual(before);
      });
    }

    it('restarts the dormancy clock of the persons a reactivation on many users reactivates, as the single action does', async () => {
      const asleep = { is_active: false, dormancy_warned_at: new Date(Date.now() - 400 * DAY), dormancy_deactivated_at: new Date(Date.now() - 370 * DAY), last_login_at: new Date(Date.now() - 800 * DAY) };
      const [byJob, alone] = [await clinicUser(), await clinicUser()];
      await db().updateTable('users').set(asleep).where('id', 'in', [byJob.id, alone.id]).execute();
      const started = await start(PERSONAS.adminClinique, { action: 'reactivate', userIds: [byJob.id] });
      expect(started.status).toBe(202);
      await app.t.app.bulkActions.drain();
      expect((await progress(PERSONAS.adminClinique, started.body.id)).succeeded).toBe(1);
      const single = await callApi(app.t, { as: PERSONAS.adminClinique, method: 'POST', route: '/api/v2/users/{id}/reactivate', params: { id: alone.id } });
      expect(single.status).toBe(200);
      const clock = (id: string) => db().selectFrom('users').select(['is_active', 'dormancy_warned_at', 'dormancy_deactivated_at', 'reactivated_at']).where('id', '=', id).executeTakeFirstOrThrow();
      const [job, one] = [await clock(byJob.id), await clock(alone.id)];
      expect(one).toMatchObject({ is_active: true, dormancy_warned_at: null, dormancy_deactivated_at: null });
      expect(job).toMatchObject({ is_active: true, dormancy_warned_at: null, dormancy_deactivated_at: null });
      expect(job.reactivated_at).not.toBeNull();
      // Neither is one of 'Comptes dormants' (whose warned accounts the next hour's job deactivates again).
      const dormant = await callApi(app.t, { as: PERSONAS.adminClinique, method: 'GET', route: '/api/v2/users', query: { accountState: 'dormant', pageSize: 100 } });
      expect((dormant.body.items as { id: string }[]).map((u) => u.id)).not.toContain(byJob.id);
    });
  });
}
