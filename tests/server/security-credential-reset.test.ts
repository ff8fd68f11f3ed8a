// Reusing a sign-in identity resets its credential, and an account set-up link is bound to the address it
// was sent to (issue 19): whoever knew the old password, or holds a link sent to an old address, gets nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { IDENTITY_TAKEN } from './support/graph-stub.ts';
import { freshEmail } from './support/invitations.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, completePayload, PERSONAS, startUsersApp, usersAppOnGraph, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import { configureAccountSetup } from '../../server/identity/account-setup-links.ts';
import { LocalIdentityDirectory } from '../../server/identity/directory.ts';
import { createIdentityAccount, verifyLocalCredentials } from '../../server/identity/local-accounts.ts';

const OLD_PASSWORD = 'Ancien-mot-de-passe-2025';
const NEW_PASSWORD = 'Nouveau-mot-de-passe-2026';

for (const backend of backends) {
  describe(`credentials of reused identities and set-up links on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
    });
    afterAll(() => t?.close());

    const db = () => t.database.handle.db;
    const create = (email: string) =>
      callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/complete', payload: completePayload([orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { email }) });
    /** The link of the last set-up e-mail sent to `email`, as path and query. */
    const setupLink = async (email: string) => {
      const mail = await db().selectFrom('outbox').select('body').where('recipient', '=', email).where('kind', '=', 'account.invitation').orderBy('id', 'desc').executeTakeFirstOrThrow();
      const url = new URL(/https:\/\/\S+/.exec(mail.body)![0]);
      return { link: `${url.pathname}${url.search}`, token: url.searchParams.get('token')! };
    };
    const submit = (token: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/oidc/account/setup', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ token, password, confirmation: password }).toString() });

    it('forgets the password of a reused local identity and sends a set-up link that sets the new one', async () => {
      const email = freshEmail('revenant');
      const orphan = await createIdentityAccount(db(), { subject: randomUUID(), email, displayName: 'Ancien Titulaire', password: OLD_PASSWORD });
      expect(await verifyLocalCredentials(db(), email, OLD_PASSWORD)).not.toBeNull();

      const created = await create(email);
      expect(created.status).toBe(201);
      expect((await db().selectFrom('users').select('auth_id').where('email', '=', email).executeTakeFirstOrThrow()).auth_id).toBe(orphan.subject);
      expect(await verifyLocalCredentials(db(), email, OLD_PASSWORD)).toBeNull();
      // Whoever held it before loses the sessions and refresh tokens they had.
      expect((await db().selectFrom('identity_accounts').select('sessions_revoked_at').where('subject', '=', orphan.subject).executeTakeFirstOrThrow()).sessions_revoked_at).toBeInstanceOf(Date);

      const { link, token } = await setupLink(email);
      expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
      expect((await submit(token, NEW_PASSWORD)).statusCode).toBe(200);
      expect(await verifyLocalCredentials(db(), email, NEW_PASSWORD)).toMatchObject({ subject: orphan.subject });
    });

    it('revokes a set-up link once the account signs in with another address, and accepts one sent to the new address', async () => {
      const email = freshEmail('premier');
      expect((await create(email)).status).toBe(201);
      const { link, token } = await setupLink(email);
      expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
      const subject = (await db().selectFrom('users').select('auth_id').where('email', '=', email).executeTakeFirstOrThrow()).auth_id!;

      const moved = freshEmail('second');
      await new LocalIdentityDirectory().updateAccount(db(), subject, { email: moved, displayName: 'Marc Hôte' });
      const stale = await t.app.inject({ method: 'GET', url: link });
      expect(stale.statusCode).toBe(400);
      expect(stale.body).toContain('Lien invalide');
      expect((await submit(token, NEW_PASSWORD)).statusCode).toBe(400);
      expect(await verifyLocalCredentials(db(), moved, NEW_PASSWORD)).toBeNull();

      const fresh = new URL(configureAccountSetup({ publicOrigin: 'https://localhost:8443', provider: 'local', secret: t.keys.accountSetupSecret })(subject, moved.toUpperCase(), new Date()));
      expect((await submit(fresh.searchParams.get('token')!, NEW_PASSWORD)).statusCode).toBe(200);
    });
  });

  describe(`reusing an identity through Microsoft Graph on ${backend.name}`, () => {
    const app = usersAppOnGraph(backend);

    it('gives the reused account a new random password that must be changed at the next sign-in', async () => {
      const { t, orgs, roles, graph } = app;
      const orphan = randomUUID();
      graph.answer((call) => {
        if (call.method === 'POST' && call.path === '/v1.0/users') return IDENTITY_TAKEN;
        if (call.method === 'POST') return { status: 204 };
        if (call.method === 'GET') return { status: 200, body: { value: [{ id: orphan }] } };
        return { status: 204 };
      });
      const from = graph.calls.length;
      const answer = await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/complete', payload: completePayload([orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { email: freshEmail('revenant') }) });
      expect(answer.status).toBe(201);
      const patch = graph.calls.slice(from).find((c) => c.method === 'PATCH' && c.path.startsWith(`/v1.0/users/${orphan}`))!;
      const body = JSON.parse(patch.body) as { accountEnabled: boolean; passwordProfile?: { password: string; forceChangePasswordNextSignIn: boolean } };
      expect(body.accountEnabled).toBe(true);
      expect(body.passwordProfile?.forceChangePasswordNextSignIn).toBe(true);
      expect(body.passwordProfile?.password).toMatch(/^.{32}$/);
      // Whoever held the identity before loses its sign-in sessions too (single sign-on of the tenant's other applications).
      expect(graph.calls.slice(from).map((c) => `${c.method} ${c.path.split('?')[0]}`)).toContain(`POST /v1.0/users/${orphan}/revokeSignInSessions`);
    });
  });
}
