// Actions on many users (issue 22): a job stored by the request and worked through by the worker, each person
// decided and journaled as the single action would, once; refusals with the single action's message; the list's
// scope for a selection by filters; the permanent delete's rights; the chosen users' CSV.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { readCsv } from './support/csv.ts';
import { callApi, createUserAs, PERSONAS, userIdOf, usersAppFor } from './support/users-api.ts';
import { USER_EXPORT_COLUMNS } from '../../server/features/users/users-export.model.ts';

for (const backend of backends) {
  describe(`actions on many users on ${backend.name}`, () => {
    const { app, db, freshUser } = usersAppFor(backend);
    const start = (as: string, payload: unknown) => callApi(app.t, { as, method: 'POST', route: '/api/v2/users/bulk-actions', payload });
    const read = (as: string, id: string) => callApi(app.t, { as, method: 'GET', route: '/api/v2/users/bulk-actions/{id}', params: { id } });
    /** Starts the job, lets the worker work it through, answers the job as its starter reads it. */
    async function runToEnd(as: string, payload: unknown) {
      const started = await start(as, payload);
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      expect(started.body).toMatchObject({ status: 'running', processed: 0, succeeded: 0, refusals: [], finishedAt: null });
      await app.t.app.bulkActions.drain();
      const done = await read(as, started.body.id);
      expect(done.body).toMatchObject({ id: started.body.id, status: 'completed', total: started.body.total });
      return done.body;
    }
    const entries = async (userId: string, action: string) => (await db().selectFrom('audit_log').select('actor_email').where('entity_id', '=', userId).where('action', '=', action as never).execute()).length;
    const isActive = async (userId: string) => (await db().selectFrom('users').select('is_active').where('id', '=', userId).executeTakeFirst())?.is_active;
    const onEhpad = () => createUserAs(app.t, PERSONAS.backoffice, [app.orgs.ehpadSirets[0]!.code], [app.roles.COMPTABLE!]);

    it("deactivates each person as the single action would, and reports each refusal with the single action's message", async () => {
      const active = await freshUser();
      const inactive = await freshUser();
      await callApi(app.t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: inactive.user.id } });
      const self = await userIdOf(app.t, PERSONAS.backoffice);
      const missing = randomUUID();
      const job = await runToEnd(PERSONAS.backoffice, { action: 'deactivate', userIds: [active.user.id, inactive.user.id, self, missing] });
      expect(job).toMatchObject({ action: 'deactivate', total: 4, processed: 4, succeeded: 1 });
      expect(job.refusals).toEqual([
        { userId: inactive.user.id, name: "Marc L'Hôte", email: inactive.user.email, reason: 'Ce compte est déjà désactivé.' },
        { userId: self, name: expect.any(String), email: PERSONAS.backoffice, reason: 'Vous ne pouvez pas modifier votre propre profil' },
        { userId: missing, name: '', email: '', reason: 'Utilisateur introuvable.' },
      ]);
      expect(await isActive(active.user.id)).toBe(false);
      expect(await entries(active.user.id, 'user.deactivate')).toBe(1);
      expect(await entries(inactive.user.id, 'user.deactivate')).toBe(1);
      expect(await isActive(self)).toBe(true);
    });

    it("keeps an employer administrator within their scope: another company's employee is not found, an administrator not touched", async () => {
      const mine = await freshUser();
      const theirs = await onEhpad();
      const administrator = (await db().selectFrom('users').select('id').where('first_name', '=', 'Hélène').where('last_name', '=', 'Lefèvre').executeTakeFirstOrThrow()).id;
      const job = await runToEnd(PERSONAS.adminClinique, { action: 'deactivate', userIds: [mine.user.id, theirs.user.id, administrator] });
      expect(job).toMatchObject({ processed: 3, succeeded: 1 });
      expect(job.refusals).toEqual([
        { userId: theirs.user.id, name: '', email: '', reason: 'Utilisateur introuvable.' },
        { userId: administrator, name: 'Hélène Lefèvre', email: expect.any(String), reason: 'Vous ne pouvez pas modifier cet utilisateur' },
      ]);
      expect([await isActive(mine.user.id), await isActive(theirs.user.id), await isActive(administrator)]).toEqual([false, true, true]);
    });

    it("selects by the list's filters within the caller's scope, in the list's order, then reactivates", async () => {
      const lastName = `Lot${[...randomUUID().replace(/[^0-9a-f]/g, '').slice(0, 8)].map((c) => String.fromCharCode(97 + (parseInt(c, 16) % 26))).join('')}`;
      const [b, a] = [await freshUser({ lastName, firstName: 'Bruno' }), await freshUser({ lastName, firstName: 'Anne' })];
      const outside = await createUserAs(app.t, PERSONAS.backoffice, [app.orgs.ehpadSirets[0]!.code], [app.roles.COMPTABLE!], { lastName });
      const off = await runToEnd(PERSONAS.adminClinique, { action: 'deactivate', filters: { search: lastName } });
      expect(off).toMatchObject({ total: 2, processed: 2, succeeded: 2, refusals: [] });
      const targets = await db().selectFrom('bulk_action_targets').select('user_id').where('bulk_action_id', '=', off.id).orderBy('position').execute();
      expect(targets.map((row) => row.user_id)).toEqual([a.user.id, b.user.id]);
      expect(await isActive(outside.user.id)).toBe(true);

      const on = await runToEnd(PERSONAS.adminClinique, { action: 'reactivate', filters: { search: lastName, includeInactive: true } });
      expect(on).toMatchObject({ total: 2, succeeded: 2 });
      const again = await runToEnd(PERSONAS.adminClinique, { action: 'reactivate', userIds: [a.user.id] });
      expect(again.refusals).toEqual([{ userId: a.user.id, name: `Anne ${lastName}`, email: a.user.email, reason: 'Ce compte est déjà actif.' }]);
      const unknown = await start(PERSONAS.adminClinique, { action: 'deactivate', filters: { organizationId: app.orgs.ehpad.id } });
      expect(unknown.status).toBe(404);
    });

    it('sends new set-up links to those who never signed in, and refuses those who did', async () => {
      const waiting = await freshUser();
      const signedIn = await freshUser();
      await callApi(app.t, { as: signedIn.user.email, method: 'GET', route: '/api/v2/users/me' });
      const job = await runToEnd(PERSONAS.adminClinique, { action: 'resendInvitation', userIds: [waiting.user.id, signedIn.user.id] });
      expect(job).toMatchObject({ succeeded: 1, refusals: [{ userId: signedIn.user.id, reason: "Ce compte a déjà été activé : la personne s'est déjà connectée." }] });
      const mails = await db().selectFrom('outbox').select('recipient').where('kind', '=', 'account.invitation').where('recipient', 'in', [waiting.user.email, signedIn.user.email]).execute();
      expect(mails.filter((m) => m.recipient === waiting.user.email)).toHaveLength(2);
      expect(await entries(waiting.user.id, 'user.invitation.resend')).toBe(1);
    });

    it('deletes permanently only for the back office holding USER_DELETE and B2C_USER_DISABLE (403 for the whole request otherwise)', async () => {
      const first = await freshUser();
      const second = await freshUser();
      for (const as of [PERSONAS.adminClinique, PERSONAS.lecteur]) {
        const refused = await start(as, { action: 'delete', userIds: [first.user.id] });
        expect(refused.status).toBe(403);
      }
      expect((await start(PERSONAS.lecteur, { action: 'deactivate', userIds: [first.user.id] })).status).toBe(403);
      expect(await db().selectFrom('bulk_actions').select('id').where('actor_user_id', 'in', [await userIdOf(app.t, PERSONAS.lecteur)]).execute()).toEqual([]);
      const job = await runToEnd(PERSONAS.backoffice, { action: 'delete', userIds: [first.user.id, second.user.id] });
      expect(job).toMatchObject({ succeeded: 2, refusals: [] });
      expect(await isActive(first.user.id)).toBeUndefined();
      expect(await entries(second.user.id, 'user.delete')).toBe(1);
    });

    it('answers 400 unless exactly one of userIds and filters is given, and 404 to anyone but the starter', async () => {
      const user = await freshUser();
      const both = await start(PERSONAS.backoffice, { action: 'deactivate', userIds: [user.user.id], filters: {} });
      expect(both.status).toBe(400);
      expect(both.body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['body.userIds', 'body.filters']);
      expect((await start(PERSONAS.backoffice, { action: 'deactivate' })).status).toBe(400);
      expect((await start(PERSONAS.backoffice, { action: 'deactivate', userIds: [user.user.id, user.user.id] })).status).toBe(400);
      const started = await start(PERSONAS.backoffice, { action: 'deactivate', userIds: [user.user.id] });
      const other = await read(PERSONAS.adminClinique, started.body.id);
      expect(other.status).toBe(404);
      expect((await read(PERSONAS.backoffice, randomUUID())).status).toBe(404);
      await app.t.app.bulkActions.drain();
    });

    it('takes a selection of 10,000 ids in one body (up to 512 KiB), and refuses a larger body with 413', async () => {
      const ids = Array.from({ length: 10_000 }, () => randomUUID());
      const exported = await app.t.app.inject({
        method: 'POST',
        url: '/api/v2/users/export',
        headers: { authorization: `Bearer ${await app.t.tokenFor(PERSONAS.backoffice)}` },
        payload: { userIds: ids },
      });
      expect(exported.statusCode).toBe(200);
      expect(readCsv(exported.body, USER_EXPORT_COLUMNS.map((c) => c.header))).toHaveLength(1);
      const tooLarge = await start(PERSONAS.backoffice, { action: 'deactivate', userIds: ids, filler: 'x'.repeat(200_000) });
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body.message).toBe('Requête trop volumineuse : le corps ne doit pas dépasser 512 Ko.');
    });

    it("exports exactly the chosen users the caller may list, as the list's CSV, with its journal entry", async () => {
      const mine = await freshUser();
      const theirs = await onEhpad();
      const answer = await app.t.app.inject({
        method: 'POST',
        url: '/api/v2/users/export',
        headers: { authorization: `Bearer ${await app.t.tokenFor(PERSONAS.adminClinique)}` },
        payload: { userIds: [mine.user.id, theirs.user.id] },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/);
      const records = readCsv(answer.body, USER_EXPORT_COLUMNS.map((c) => c.header));
      expect(records.slice(1).map((r) => r[2])).toEqual([mine.user.email]);
      const entry = await db().selectFrom('audit_log').select(['changes', 'actor_email']).where('action', '=', 'users.export').orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(entry).toMatchObject({ actor_email: PERSONAS.adminClinique, changes: { rows: 1 } });
    });
  });
}
