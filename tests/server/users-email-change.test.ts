// Changing a person's e-mail no longer hands over their sign-in identity (issue 19): the new address waits
// until the person, signed in with their current address, confirms it through the single-use link sent there;
// the current address is told. Whoever holds the new mailbox without being the person cannot confirm it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, confirmEmailChange, createUserAs, emailChangeToken, PERSONAS, rowCounts, startUsersApp, uniqueEmail, usersAppOnGraph, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import { verifyLocalCredentials } from '../../server/identity/local-accounts.ts';
import { loggableUrl } from '../../server/plugins/logging.ts';

const PASSWORD = 'Mot-de-passe-choisi-2026';

for (const backend of backends) {
  describe(`confirming a new e-mail on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
    });
    afterAll(() => t?.close());

    const db = () => t.database.handle.db;
    const freshUser = () => createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!]);
    const rename = (as: string, id: string, email: string) =>
      callApi(t, { as, method: 'PUT', route: '/api/v2/users/{id}', params: { id }, payload: { firstName: 'Marc', lastName: "L'Hôte", email, metadata: null } });
    const mailsTo = (recipient: string) => db().selectFrom('outbox').select(['kind', 'subject', 'body']).where('recipient', '=', recipient).orderBy('id').execute();
    const linkIn = (body: string) => new URL(/https:\/\/\S+/.exec(body)![0]);
    /** The confirmation, as the portal's page posts it, with the token of `as` (null: none). */
    const confirmAs = (as: string | null, token: string) => callApi(t, { as, method: 'POST', route: '/api/v2/users/me/email-confirmation', payload: { token } });
    const me = async (as: string) => (await callApi(t, { as, method: 'GET', route: '/api/v2/users/me' })).body;
    const userRow = (id: string) => db().selectFrom('users').select(['email', 'pending_email', 'auth_id', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
    const identityEmail = async (subject: string) => (await db().selectFrom('identity_accounts').select('email').where('subject', '=', subject).executeTakeFirstOrThrow()).email;
    const actions = async (id: string) => (await db().selectFrom('audit_log').select('action').where('entity_id', '=', id).orderBy('id').execute()).map((a) => a.action);

    it('keeps the e-mail and the sign-in identity, holds the new address as pending, mails both addresses and audits the request', async () => {
      const created = await freshUser();
      const next = uniqueEmail('nouvelle');
      const answer = await rename(PERSONAS.backoffice, created.user.id, next);
      expect(answer.status).toBe(200);
      expect(answer.body.user).toMatchObject({ email: created.user.email, pendingEmail: next });
      const row = await userRow(created.user.id);
      expect(row).toMatchObject({ email: created.user.email, pending_email: next });
      expect(await identityEmail(row.auth_id!)).toBe(created.user.email);

      const [confirmation] = (await mailsTo(next)).filter((m) => m.kind === 'email.change.confirm');
      expect(confirmation!.subject).toBe('Confirmez votre nouvelle adresse de connexion');
      expect(confirmation!.body).toMatch(/https:\/\/localhost:8443\/compte\/confirmer-email\?token=[\w-]{43}\n/);
      expect(confirmation!.body).toContain('24 heures');
      expect(confirmation!.body).toContain(`connectez-vous avec votre adresse actuelle (${created.user.email})`);
      // Who asked is named in both, and the person is warned not to confirm a change they did not ask for.
      expect(confirmation!.body).toContain(`à la demande de ${PERSONAS.backoffice}`);
      expect(confirmation!.body).toContain("Ne le confirmez que si vous l'avez demandé vous-même");
      const notice = (await mailsTo(created.user.email)).find((m) => m.kind === 'email.change.notice')!;
      expect(notice.subject).toBe('Votre adresse de connexion va changer');
      expect(notice.body).toContain(next);
      expect(notice.body).toContain(`à la demande de ${PERSONAS.backoffice}`);
      expect(notice.body).toContain("Si cette nouvelle adresse n'est pas la vôtre, ne confirmez rien");
      expect(notice.body).not.toMatch(/token=/);
      expect(await actions(created.user.id)).toEqual(['user.create', 'user.email.request']);

      const details = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users/{id}/full-details', params: { id: created.user.id } });
      expect(details.body.user).toMatchObject({ email: created.user.email, pendingEmail: next });
      // The person sees it on their own profile; nobody else's /users/me carries it.
      expect(await me(created.user.email)).toMatchObject({ email: created.user.email, pendingEmail: next });
      expect(await me(PERSONAS.backoffice)).toMatchObject({ pendingEmail: null });
    });

    it('lets the person, signed in with their current address, confirm once: e-mail, sign-in identity, audit', async () => {
      const created = await freshUser();
      const next = uniqueEmail('confirmee');
      await rename(PERSONAS.backoffice, created.user.id, next);
      const token = await emailChangeToken(t, next);

      const done = await confirmAs(created.user.email, token);
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ email: next });
      const row = await userRow(created.user.id);
      expect(row).toMatchObject({ email: next, pending_email: null });
      expect(await identityEmail(row.auth_id!)).toBe(next);
      expect(await actions(created.user.id)).toEqual(['user.create', 'user.email.request', 'user.email.confirm']);
      const entry = await db().selectFrom('audit_log').select(['actor_id', 'changes']).where('entity_id', '=', created.user.id).where('action', '=', 'user.email.confirm').executeTakeFirstOrThrow();
      expect(entry).toMatchObject({ actor_id: created.user.id, changes: { email: { before: created.user.email, after: next } } });
      expect(await me(next)).toMatchObject({ email: next, pendingEmail: null });

      // Single use.
      const again = await confirmAs(next, token);
      expect(again.status).toBe(404);
      expect(again.body.message).toBe("Ce lien n'est plus valable : il a expiré, a déjà servi, a été remplacé par une demande plus récente, ou n'est pas correct.");
    });

    it('refuses (403) the link to anyone but the person: the editor who gave an address they control, the back office; nothing is used up or changed', async () => {
      // A colleague of the clinic's administrator, with no protected role: the administrator may edit them.
      const colleague = await freshUser();
      const controlled = uniqueEmail('boite.de.l.administrateur');
      expect((await rename(PERSONAS.adminClinique, colleague.user.id, controlled)).status).toBe(200);
      // The administrator reads the link in the mailbox they control, and posts it signed in as themselves.
      const token = await emailChangeToken(t, controlled);
      const before = { counts: await rowCounts(t), row: await userRow(colleague.user.id) };
      for (const as of [PERSONAS.adminClinique, PERSONAS.backoffice, PERSONAS.rhClinique]) {
        const refused = await confirmAs(as, token);
        expect(refused.status, as).toBe(403);
        expect(refused.body.message).toBe(
          "Ce lien concerne un autre compte : seule la personne dont l'adresse change peut la confirmer, connectée avec son adresse actuelle. Déconnectez-vous, puis ouvrez de nouveau le lien.",
        );
      }
      expect((await confirmAs(null, token)).status).toBe(401);
      expect(await rowCounts(t)).toEqual(before.counts);
      expect(await userRow(colleague.user.id)).toEqual(before.row);
      expect(await identityEmail(before.row.auth_id!)).toBe(colleague.user.email);
      // The person, told at their current address, may still confirm it if it is theirs: the link was not used up.
      expect((await confirmAs(colleague.user.email, token)).status).toBe(200);
    });

    it('confirms once when the same link is posted twice at the same time, and an edit racing a confirmation leaves one of them whole', async () => {
      const created = await freshUser();
      const next = uniqueEmail('deux.fois');
      await rename(PERSONAS.backoffice, created.user.id, next);
      const token = await emailChangeToken(t, next);
      // One sign-in for both (a second look-up of the person by their old address would find none once the first has confirmed).
      const bearer = await t.tokenFor(created.user.email);
      const post = () => t.app.inject({ method: 'POST', url: '/api/v2/users/me/email-confirmation', headers: { authorization: `Bearer ${bearer}` }, payload: { token } });
      const statuses = (await Promise.all([post(), post()])).map((a) => a.statusCode).sort();
      expect(statuses).toEqual([200, 404]);
      expect(await userRow(created.user.id)).toMatchObject({ email: next, pending_email: null });

      // A confirmation and a new request at once: either the confirmation wins (then the new request waits), or the
      // new request replaces the link (then the confirmation finds none); never a mix, never a deadlock.
      const third = uniqueEmail('course');
      await rename(PERSONAS.backoffice, created.user.id, third);
      const raced = await emailChangeToken(t, third);
      const fourth = uniqueEmail('course.bis');
      const [confirmed, edited] = await Promise.all([confirmAs(next, raced), rename(PERSONAS.backoffice, created.user.id, fourth)]);
      expect(edited.status).toBe(200);
      const row = await userRow(created.user.id);
      if (confirmed.status === 200) expect(row).toMatchObject({ email: third, pending_email: fourth });
      else expect([confirmed.status, row]).toEqual([404, expect.objectContaining({ email: next, pending_email: fourth })]);
    });

    it('refuses the confirmation of an inactive person (403), changing nothing', async () => {
      const created = await freshUser();
      const next = uniqueEmail('inactive');
      await rename(PERSONAS.backoffice, created.user.id, next);
      const token = await emailChangeToken(t, next);
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: created.user.id } })).status).toBe(200);
      expect((await confirmAs(created.user.email, token)).status).toBe(403);
      expect(await userRow(created.user.id)).toMatchObject({ email: created.user.email, pending_email: next });
    });

    it('stops the set-up link sent to the old address once the new one is confirmed; the person then sets a password for the new one', async () => {
      const created = await freshUser();
      const setup = linkIn((await mailsTo(created.user.email)).find((m) => m.kind === 'account.invitation')!.body);
      const next = uniqueEmail('relais');
      await rename(PERSONAS.backoffice, created.user.id, next);
      // Until the confirmation, the old link still serves the account as it is.
      expect((await t.app.inject({ method: 'GET', url: `${setup.pathname}${setup.search}` })).statusCode).toBe(200);
      expect((await confirmAs(created.user.email, await emailChangeToken(t, next))).status).toBe(200);
      const stale = await t.app.inject({ method: 'POST', url: '/oidc/account/setup', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ token: setup.searchParams.get('token')!, password: PASSWORD, confirmation: PASSWORD }).toString() });
      expect(stale.statusCode).toBe(400);
      expect(await verifyLocalCredentials(db(), next, PASSWORD)).toBeNull();
    });

    it('refuses (404) an expired link, a link replaced by a newer request, and a forged one; (400) a body without a token; changing nothing', async () => {
      const created = await freshUser();
      const person = created.user.email;
      const first = uniqueEmail('premiere');
      await rename(PERSONAS.backoffice, created.user.id, first);
      const firstToken = await emailChangeToken(t, first);
      const second = uniqueEmail('seconde');
      await rename(PERSONAS.backoffice, created.user.id, second);
      expect((await confirmAs(person, firstToken)).status).toBe(404);
      expect((await confirmAs(person, 'A'.repeat(43))).status).toBe(404);
      expect((await confirmAs(person, 'pas un jeton')).status).toBe(404);
      const empty = await callApi(t, { as: person, method: 'POST', route: '/api/v2/users/me/email-confirmation', payload: {} });
      expect(empty.status).toBe(400);
      expect(empty.body.fieldErrors.map((e: { field: string }) => e.field)).toEqual(['body.token']);

      const secondToken = await emailChangeToken(t, second);
      await db().updateTable('email_change_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('user_id', '=', created.user.id).execute();
      expect((await confirmAs(person, secondToken)).status).toBe(404);
      expect(await userRow(created.user.id)).toMatchObject({ email: person });
      // An expired request is no longer shown as waiting.
      const details = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users/{id}/full-details', params: { id: created.user.id } });
      expect(details.body.user).toMatchObject({ email: person, pendingEmail: null });
      expect(await me(person)).toMatchObject({ pendingEmail: null });
    });

    it('refuses (409) a pending address another user has, and a confirmation once another user took the address', async () => {
      const created = await freshUser();
      const taken = await rename(PERSONAS.backoffice, created.user.id, PERSONAS.rhClinique);
      expect(taken.status).toBe(409);
      expect(taken.body.message).toBe('Cette adresse email est déjà utilisée par un autre utilisateur.');
      expect((await userRow(created.user.id)).pending_email).toBeNull();

      const next = uniqueEmail('convoitee');
      await rename(PERSONAS.backoffice, created.user.id, next);
      const token = await emailChangeToken(t, next);
      await createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { email: next });
      const refused = await confirmAs(created.user.email, token);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toContain('Cette adresse email est déjà utilisée par un autre utilisateur.');
      expect((await userRow(created.user.id)).email).toBe(created.user.email);
    });

    it("never logs a confirmation link's token (the portal's page; the API takes it in the body)", () => {
      expect(loggableUrl('/compte/confirmer-email?token=secret')).toBe('/compte/confirmer-email');
    });

    it('applies a change of letter case at once, as the same address', async () => {
      const created = await freshUser();
      const answer = await rename(PERSONAS.backoffice, created.user.id, created.user.email.toUpperCase());
      expect(answer.body.user).toMatchObject({ email: created.user.email.toUpperCase(), pendingEmail: null });
    });
  });

  describe(`confirming a new e-mail with Microsoft Graph on ${backend.name}`, () => {
    const app = usersAppOnGraph(backend);

    it('asks nothing of Graph when the change is requested, and changes the sign-in e-mail there once it is confirmed', async () => {
      const { t, orgs, roles, graph } = app;
      const id = 'b2c-object-id';
      graph.answer((call) => {
        if (call.method === 'POST') return { status: 201, body: { id } };
        if (call.method === 'GET') return { status: 200, body: { identities: [{ signInType: 'emailAddress', issuer: 'tenant.onmicrosoft.com', issuerAssignedId: 'old@exemple.fr' }] } };
        return { status: 204 };
      });
      const created = await createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!]);
      const next = uniqueEmail('graph');
      const before = graph.calls.length;
      await callApi(t, { as: PERSONAS.backoffice, method: 'PUT', route: '/api/v2/users/{id}', params: { id: created.user.id }, payload: { firstName: 'Marc', lastName: "L'Hôte", email: next, metadata: null } });
      expect(graph.calls.slice(before).filter((c) => !c.path.includes('/oauth2/'))).toEqual([]);

      const done = await confirmEmailChange(t, next);
      expect(done.status).toBe(200);
      const patch = graph.calls.slice(before).find((c) => c.method === 'PATCH' && c.path.startsWith(`/v1.0/users/${id}`))!;
      expect(JSON.parse(patch.body).identities).toEqual([{ signInType: 'emailAddress', issuer: 'tenant.onmicrosoft.com', issuerAssignedId: next }]);
    });
  });
}
