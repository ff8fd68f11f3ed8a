// A new set-up link for a user who has never signed in (issue 22): the old link stops working, the new one sets
// the account up, the list and the profile tell when it was sent, the journal has the resend; refused once the
// person has signed in (409), for oneself (403), out of reach (404), for an inactive account (409).
import { describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { callApi, PERSONAS, userIdOf, usersAppFor } from './support/users-api.ts';
import { RESENDS_PER_HOUR, TOO_MANY_RESENDS } from '../../server/features/users/users.policy.ts';

for (const backend of backends) {
  describe(`sending a set-up link again on ${backend.name}`, () => {
    const { app, db, freshUser } = usersAppFor(backend);
    const resend = (as: string, id: string) => callApi(app.t, { as, method: 'POST', route: '/api/v2/users/{id}/resend-invitation', params: { id } });
    /** The set-up links e-mailed to this address, oldest first (path and query). */
    const links = async (email: string) =>
      (await db().selectFrom('outbox').select('body').where('recipient', '=', email).where('kind', '=', 'account.invitation').orderBy('id').execute()).map((mail) => {
        const url = new URL(/https:\/\/\S+/.exec(mail.body)![0]);
        return `${url.pathname}${url.search}`;
      });
    const open = (link: string) => app.t.app.inject({ method: 'GET', url: link });
    const getUser = (as: string, id: string) => callApi(app.t, { as, method: 'GET', route: '/api/v2/users/{id}', params: { id } });

    it('sends a new link and revokes the old one; the list and the profile say when; the journal has it', async () => {
      const created = await freshUser();
      const [first] = await links(created.user.email);
      expect((await open(first!)).statusCode).toBe(200);
      const before = await getUser(PERSONAS.backoffice, created.user.id);
      expect(before.body.allowedActions).toContain('resendInvitation');
      expect(before.body.user.invitationSentAt).not.toBeNull();

      const { status, body } = await resend(PERSONAS.backoffice, created.user.id);
      expect(status).toBe(200);
      expect(new Date(body.invitationSentAt).getTime()).toBeGreaterThan(new Date(before.body.user.invitationSentAt).getTime());
      const [old, fresh] = await links(created.user.email);
      expect(old).toBe(first);
      const revoked = await open(old!);
      expect(revoked.statusCode).toBe(400);
      expect(revoked.body).toContain('Lien invalide');
      expect((await open(fresh!)).statusCode).toBe(200);

      expect((await getUser(PERSONAS.backoffice, created.user.id)).body.user.invitationSentAt).toBe(body.invitationSentAt);
      const listed = await callApi(app.t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users', query: { search: created.user.email } });
      expect(listed.body.items[0]).toMatchObject({ id: created.user.id, lastLoginAt: null, invitationSentAt: body.invitationSentAt });

      const entries = await db().selectFrom('audit_log').select(['action', 'actor_email']).where('entity_id', '=', created.user.id).orderBy('id').execute();
      expect(entries).toEqual([
        { action: 'user.create', actor_email: PERSONAS.backoffice },
        { action: 'user.invitation.resend', actor_email: PERSONAS.backoffice },
      ]);
      const journal = await callApi(app.t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/audit', query: { userId: created.user.id, action: 'user.invitation.resend' } });
      expect(journal.body.items[0].sentence).toMatch(/ a renvoyé l'invitation à Marc L'Hôte\.$/);
    });

    it("lets an employer administrator send it again to their company's employee, not to another company's", async () => {
      const created = await freshUser();
      expect((await resend(PERSONAS.adminClinique, created.user.id)).status).toBe(200);
      const outside = await resend(PERSONAS.adminEhpad, created.user.id);
      expect(outside.status).toBe(404);
      expect(outside.body.message).toBe('Utilisateur introuvable.');
      expect(await links(created.user.email)).toHaveLength(2);
    });

    it('answers 409 once the person has signed in, and the list then shows no invitation date', async () => {
      const created = await freshUser();
      // The person's first visit records their sign-in.
      expect((await callApi(app.t, { as: created.user.email, method: 'GET', route: '/api/v2/users/me' })).status).toBe(200);
      const refused = await resend(PERSONAS.backoffice, created.user.id);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe("Ce compte a déjà été activé : la personne s'est déjà connectée.");
      const seen = await getUser(PERSONAS.backoffice, created.user.id);
      expect(seen.body.user.invitationSentAt).toBeNull();
      expect(seen.body.allowedActions).not.toContain('resendInvitation');
      expect(await links(created.user.email)).toHaveLength(1);
    });

    it('answers 409 for an inactive account, 403 for oneself and for a caller without USER_CREATE', async () => {
      const created = await freshUser();
      await callApi(app.t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: created.user.id } });
      const inactive = await resend(PERSONAS.backoffice, created.user.id);
      expect(inactive.status).toBe(409);
      expect(inactive.body.message).toBe("Ce compte est désactivé : réactivez-le avant de renvoyer l'invitation.");
      const self = await resend(PERSONAS.backoffice, await userIdOf(app.t, PERSONAS.backoffice));
      expect(self.status).toBe(403);
      expect(self.body.message).toBe('Vous ne pouvez pas modifier votre propre profil');
      expect((await resend(PERSONAS.lecteur, created.user.id)).status).toBe(403);
      expect(await db().selectFrom('audit_log').select('action').where('entity_id', '=', created.user.id).where('action', '=', 'user.invitation.resend').execute()).toEqual([]);
    });

    it('sends a link again at most twice an hour to one person, then answers 429 and mails nothing more (security review)', async () => {
      const { user } = await freshUser();
      const resend = () => callApi(app.t, { as: PERSONAS.adminClinique, method: 'POST', route: '/api/v2/users/{id}/resend-invitation', params: { id: user.id } });
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push(await resend());
      expect(statuses.map((a) => a.status)).toEqual([200, 200, 429, 429]);
      expect(statuses[2]!.body.message).toBe(TOO_MANY_RESENDS);
      const mails = await db().selectFrom('outbox').select('id').where('kind', '=', 'account.invitation').where('recipient', '=', user.email).execute();
      expect(mails).toHaveLength(1 + RESENDS_PER_HOUR);
      // An hour later (the journal's entries moved back), one more may go.
      await db().updateTable('audit_log').set({ at: new Date(Date.now() - 3_700_000) }).where('entity_id', '=', user.id).where('action', '=', 'user.invitation.resend').execute();
      expect((await resend()).status).toBe(200);
    });
  });
}
