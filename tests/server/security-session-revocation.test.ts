// Deactivation, deletion and a confirmed e-mail change end the person's sessions at the identity provider
// (issue 19): Microsoft Graph's revokeSignInSessions; the local provider's sessions and refresh tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import type { GraphCall } from './support/graph-stub.ts';
import { openSignInForm } from './support/sign-in.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, confirmEmailChange, createUserAs, PERSONAS, startUsersApp, uniqueEmail, usersAppOnGraph, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import { setIdentityPassword } from '../../server/identity/local-accounts.ts';

const PASSWORD = 'Mot-de-passe-de-session-2026';

for (const backend of backends) {
  describe(`the local provider's sessions of a changed account on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
    });
    afterAll(() => t?.close());

    /** A new user with a password, signed in with offline_access: their browser, and a refresh token that works. */
    async function signedInUser() {
      const created = await createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!]);
      const { auth_id: subject } = await t.database.handle.db.selectFrom('users').select('auth_id').where('id', '=', created.user.id).executeTakeFirstOrThrow();
      await setIdentityPassword(t.database.handle.db, subject!, PASSWORD);
      const browser = await openSignInForm(t, '127.0.0.1', 'openid email profile offline_access');
      const tokens = await browser.tokens(await browser.post(created.user.email, PASSWORD));
      expect(tokens.refresh_token).toBeTruthy();
      const renewed = await browser.refresh(tokens.refresh_token!);
      expect(renewed.statusCode).toBe(200);
      expect((await browser.silent()).searchParams.get('code')).toBeTruthy();
      return { id: created.user.id, browser, refreshToken: renewed.json().refresh_token ?? tokens.refresh_token! };
    }

    it('ends the sessions and refresh tokens of a person whose new e-mail is confirmed', async () => {
      const { id, browser, refreshToken } = await signedInUser();
      const next = uniqueEmail('session');
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'PUT', route: '/api/v2/users/{id}', params: { id }, payload: { firstName: 'Marc', lastName: "L'Hôte", email: next, metadata: null } })).status).toBe(200);
      expect((await confirmEmailChange(t, next)).status).toBe(200);

      const refused = await browser.refresh(refreshToken);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toBe('invalid_grant');
      expect((await browser.silent()).searchParams.get('error')).toBe('login_required');

      // A new sign-in, with the new address, is not affected.
      const again = await openSignInForm(t, '127.0.0.1', 'openid email profile offline_access');
      const tokens = await again.tokens(await again.post(next, PASSWORD));
      expect((await again.refresh(tokens.refresh_token!)).statusCode).toBe(200);
    });

    it('keeps the sessions of a person whose change is only requested', async () => {
      const { id, browser, refreshToken } = await signedInUser();
      await callApi(t, { as: PERSONAS.backoffice, method: 'PUT', route: '/api/v2/users/{id}', params: { id }, payload: { firstName: 'Marc', lastName: "L'Hôte", email: uniqueEmail('attente'), metadata: null } });
      expect((await browser.refresh(refreshToken)).statusCode).toBe(200);
    });

    it('ends them on deactivation, and a reactivation does not bring them back', async () => {
      const { id, browser, refreshToken } = await signedInUser();
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id } })).status).toBe(200);
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/reactivate', params: { id } })).status).toBe(200);
      expect((await browser.refresh(refreshToken)).statusCode).toBe(400);
      expect((await browser.silent()).searchParams.get('error')).toBe('login_required');
    });
  });

  describe(`revoking sessions through Microsoft Graph on ${backend.name}`, () => {
    const app = usersAppOnGraph(backend);
    let objectId = 0;
    beforeAll(() => {
      app.graph.answer((call: GraphCall) => {
        if (call.method === 'POST' && call.path === '/v1.0/users') return { status: 201, body: { id: `objet-${++objectId}` } };
        if (call.method === 'POST') return { status: 200, body: { value: true } };
        if (call.method === 'GET') return { status: 200, body: { identities: [] } };
        return { status: 204 };
      });
    });

    const graphCallsDuring = async (work: () => Promise<unknown>) => {
      const from = app.graph.calls.length;
      await work();
      return app.graph.calls.slice(from).filter((c) => !c.path.includes('/oauth2/')).map((c) => `${c.method} ${c.path.split('?')[0]}`);
    };
    const newUser = async () => {
      const created = await createUserAs(app.t, PERSONAS.backoffice, [app.orgs.cliniqueSirets[0]!.code], [app.roles.COMPTABLE!]);
      const { auth_id } = await app.t.database.handle.db.selectFrom('users').select('auth_id').where('id', '=', created.user.id).executeTakeFirstOrThrow();
      return { id: created.user.id, subject: auth_id! };
    };
    const post = (route: '/api/v2/users/{id}/deactivate' | '/api/v2/users/{id}/reactivate', id: string) => callApi(app.t, { as: PERSONAS.backoffice, method: 'POST', route, params: { id } });

    it('revokes the sign-in sessions on deactivation, not on reactivation', async () => {
      const { id, subject } = await newUser();
      expect(await graphCallsDuring(() => post('/api/v2/users/{id}/deactivate', id))).toEqual([`PATCH /v1.0/users/${subject}`, `POST /v1.0/users/${subject}/revokeSignInSessions`]);
      expect(await graphCallsDuring(() => post('/api/v2/users/{id}/reactivate', id))).toEqual([`PATCH /v1.0/users/${subject}`]);
    });

    it('revokes them on a permanent delete, before the account is deleted', async () => {
      const { id, subject } = await newUser();
      const calls = await graphCallsDuring(() => callApi(app.t, { as: PERSONAS.backoffice, method: 'DELETE', route: '/api/v2/users/{id}', params: { id }, query: 'hardDelete=true' }));
      expect(calls).toEqual([`PATCH /v1.0/users/${subject}`, `POST /v1.0/users/${subject}/revokeSignInSessions`, `DELETE /v1.0/users/${subject}`]);
    });

    it('revokes them once a new e-mail is confirmed, not when it is requested', async () => {
      const { id, subject } = await newUser();
      const next = uniqueEmail('graph.session');
      expect(await graphCallsDuring(() => callApi(app.t, { as: PERSONAS.backoffice, method: 'PUT', route: '/api/v2/users/{id}', params: { id }, payload: { firstName: 'Marc', lastName: "L'Hôte", email: next, metadata: null } }))).toEqual([]);
      const calls = await graphCallsDuring(() => confirmEmailChange(app.t, next));
      expect(calls).toEqual([`GET /v1.0/users/${subject}`, `PATCH /v1.0/users/${subject}`, `POST /v1.0/users/${subject}/revokeSignInSessions`]);
    });
  });
}
