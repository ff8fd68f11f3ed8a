// Changing a person's e-mail no longer hands over their sign-in identity (issue 19): the new address waits
// until its owner confirms it through the single-use link sent there; the current address is told.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, createUserAs, PERSONAS, startUsersApp, uniqueEmail, usersAppOnGraph, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
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
    const confirmLinkOf = async (email: string) => {
      const mail = (await mailsTo(email)).filter((m) => m.kind === 'email.change.confirm').at(-1)!;
      return linkIn(mail.body);
    };
    const open = (url: URL) => t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    const confirm = (token: string) =>
      t.app.inject({ method: 'POST', url: '/compte/confirmer-email', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ token }).toString() });
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
      const notice = (await mailsTo(created.user.email)).find((m) => m.kind === 'email.change.notice')!;
      expect(notice.subject).toBe('Votre adresse de connexion va changer');
      expect(notice.body).toContain(next);
      expect(notice.body).not.toMatch(/token=/);
      expect(await actions(created.user.id)).toEqual(['user.create', 'user.email.request']);

      const details = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users/{id}/full-details', params: { id: created.user.id } });
      expect(details.body.user).toMatchObject({ email: created.user.email, pendingEmail: next });
    });

    it('shows the French confirmation page without changing anything, then confirms once: e-mail, sign-in identity, audit', async () => {
      const created = await freshUser();
      const next = uniqueEmail('confirmee');
      await rename(PERSONAS.backoffice, created.user.id, next);
      const link = await confirmLinkOf(next);

      const page = await open(link);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).toContain('<html lang="fr">');
      expect(page.body).toContain('<h1>Confirmez votre nouvelle adresse</h1>');
      expect(page.body).toContain(next);
      expect((await userRow(created.user.id)).email).toBe(created.user.email);

      const done = await confirm(link.searchParams.get('token')!);
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain('Adresse confirmée');
      const row = await userRow(created.user.id);
      expect(row).toMatchObject({ email: next, pending_email: null });
      expect(await identityEmail(row.auth_id!)).toBe(next);
      expect(await actions(created.user.id)).toEqual(['user.create', 'user.email.request', 'user.email.confirm']);
      const entry = await db().selectFrom('audit_log').select(['actor_id', 'changes']).where('entity_id', '=', created.user.id).where('action', '=', 'user.email.confirm').executeTakeFirstOrThrow();
      expect(entry).toMatchObject({ actor_id: created.user.id, changes: { email: { before: created.user.email, after: next } } });

      // Single use.
      expect((await open(link)).statusCode).toBe(400);
      const again = await confirm(link.searchParams.get('token')!);
      expect(again.statusCode).toBe(400);
      expect(again.body).toContain('Lien invalide');
    });

    it('stops the set-up link sent to the old address once the new one is confirmed; the person then sets a password for the new one', async () => {
      const created = await freshUser();
      const setup = linkIn((await mailsTo(created.user.email)).find((m) => m.kind === 'account.invitation')!.body);
      const next = uniqueEmail('relais');
      await rename(PERSONAS.backoffice, created.user.id, next);
      // Until the confirmation, the old link still serves the account as it is.
      expect((await t.app.inject({ method: 'GET', url: `${setup.pathname}${setup.search}` })).statusCode).toBe(200);
      await confirm((await confirmLinkOf(next)).searchParams.get('token')!);
      const stale = await t.app.inject({ method: 'POST', url: '/oidc/account/setup', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ token: setup.searchParams.get('token')!, password: PASSWORD, confirmation: PASSWORD }).toString() });
      expect(stale.statusCode).toBe(400);
      expect(await verifyLocalCredentials(db(), next, PASSWORD)).toBeNull();
    });

    it('refuses an expired link, a link replaced by a newer request, and a forged one, changing nothing', async () => {
      const created = await freshUser();
      const first = uniqueEmail('premiere');
      await rename(PERSONAS.backoffice, created.user.id, first);
      const firstLink = await confirmLinkOf(first);
      const second = uniqueEmail('seconde');
      await rename(PERSONAS.backoffice, created.user.id, second);
      expect((await confirm(firstLink.searchParams.get('token')!)).statusCode).toBe(400);
      expect((await confirm('A'.repeat(43))).statusCode).toBe(400);
      expect((await confirm('')).statusCode).toBe(400);

      const secondLink = await confirmLinkOf(second);
      await db().updateTable('email_change_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('user_id', '=', created.user.id).execute();
      expect((await open(secondLink)).statusCode).toBe(400);
      expect((await confirm(secondLink.searchParams.get('token')!)).statusCode).toBe(400);
      expect(await userRow(created.user.id)).toMatchObject({ email: created.user.email });
      // An expired request is no longer shown as waiting.
      const details = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users/{id}/full-details', params: { id: created.user.id } });
      expect(details.body.user).toMatchObject({ email: created.user.email, pendingEmail: null });
    });

    it('refuses (409) a pending address another user has, and a confirmation once another user took the address', async () => {
      const created = await freshUser();
      const taken = await rename(PERSONAS.backoffice, created.user.id, PERSONAS.rhClinique);
      expect(taken.status).toBe(409);
      expect(taken.body.message).toBe('Cette adresse email est déjà utilisée par un autre utilisateur.');
      expect((await userRow(created.user.id)).pending_email).toBeNull();

      const next = uniqueEmail('convoitee');
      await rename(PERSONAS.backoffice, created.user.id, next);
      const link = await confirmLinkOf(next);
      await createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { email: next });
      const refused = await confirm(link.searchParams.get('token')!);
      expect(refused.statusCode).toBe(409);
      expect(refused.body).toContain('Cette adresse email est déjà utilisée par un autre utilisateur.');
      expect((await userRow(created.user.id)).email).toBe(created.user.email);
    });

    it("never logs a confirmation link's token", () => {
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

      const mail = await t.database.handle.db.selectFrom('outbox').select('body').where('recipient', '=', next).where('kind', '=', 'email.change.confirm').executeTakeFirstOrThrow();
      const token = new URL(/https:\/\/\S+/.exec(mail.body)![0]).searchParams.get('token')!;
      const done = await t.app.inject({ method: 'POST', url: '/compte/confirmer-email', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ token }).toString() });
      expect(done.statusCode).toBe(200);
      const patch = graph.calls.slice(before).find((c) => c.method === 'PATCH' && c.path.startsWith(`/v1.0/users/${id}`))!;
      expect(JSON.parse(patch.body).identities).toEqual([{ signInType: 'emailAddress', issuer: 'tenant.onmicrosoft.com', issuerAssignedId: next }]);
    });
  });
}
