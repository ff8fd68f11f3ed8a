import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, UnsecuredJWT } from 'jose';
import { backends } from './db/test-databases.ts';
import { expectMatchesContract } from './support/contract.ts';
import { foreignKey, startTestApp, type TestApp } from './support/test-app.ts';

for (const backend of backends) {
  describe(`GET /api/v2/users/me on ${backend.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    const me = (token?: string) =>
      t.app.inject({ method: 'GET', url: '/api/v2/users/me', headers: token ? { authorization: `Bearer ${token}` } : {} });

    async function expectUnauthorized(token: string | undefined) {
      const answer = await me(token);
      expect(answer.statusCode).toBe(401);
      const body = answer.json();
      expectMatchesContract('GET', '/api/v2/users/me', 401, body);
      expect(body.error).toBe('Unauthorized');
      expect(body.requestId).toBe(answer.headers['x-request-id']);
      expect(answer.body).not.toMatch(/at .*\.ts:\d+/);
    }

    it('answers 401 without a token', async () => {
      await expectUnauthorized(undefined);
    });

    it('answers 401 to a malformed token', async () => {
      await expectUnauthorized('not-a-jwt');
    });

    it('answers 401 to an expired token', async () => {
      const past = Math.floor(Date.now() / 1000) - 7200;
      await expectUnauthorized(await t.tokenFor('backoffice@portail.test', { iat: past, auth_time: past, exp: past + 3600 }));
    });

    it('answers 401 to a token signed by another key', async () => {
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ iss: t.issuer, aud: t.audience, sub: 'x', iat: now, exp: now + 600 })
        .setProtectedHeader({ alg: 'RS256', kid: t.keys.publicJwks.keys[0]!.kid })
        .sign(await foreignKey());
      await expectUnauthorized(token);
    });

    it('answers 401 to a token of another audience', async () => {
      await expectUnauthorized(await t.tokenFor('backoffice@portail.test', { aud: 'another-application' }));
    });

    it('answers 401 to a token of another issuer', async () => {
      await expectUnauthorized(await t.tokenFor('backoffice@portail.test', { iss: 'https://attacker.example/oidc' }));
    });

    it("answers 401 to an unsigned token (alg 'none')", async () => {
      const now = Math.floor(Date.now() / 1000);
      const subject = (await t.database.handle.db.selectFrom('identity_accounts').select('subject').where('email', '=', 'backoffice@portail.test').executeTakeFirstOrThrow()).subject;
      await expectUnauthorized(new UnsecuredJWT({ iss: t.issuer, aud: t.audience, sub: subject, iat: now, exp: now + 600 }).encode());
    });

    it('answers 401 to a valid token whose subject has no portal account', async () => {
      const now = Math.floor(Date.now() / 1000);
      await expectUnauthorized(await t.sign({ iss: t.issuer, aud: t.audience, sub: 'no-such-subject', iat: now, exp: now + 600 }));
    });

    it('answers the back-office profile with its own permissions', async () => {
      const answer = await me(await t.tokenFor('backoffice@portail.test'));
      expect(answer.statusCode).toBe(200);
      const body = answer.json();
      expectMatchesContract('GET', '/api/v2/users/me', 200, body);
      expect(body).toMatchObject({ email: 'backoffice@portail.test', userType: 'BACKOFFICE', isActive: true, organizations: [] });
      expect(body.permissions.map((p: { code: string }) => p.code).sort()).toEqual(['B2C_USER_DISABLE', 'ORG_LIST', 'USER_CREATE', 'USER_DELETE', 'USER_LIST']);
    });

    it("answers an organization user's organizations with their role and its permissions", async () => {
      const body = (await me(await t.tokenFor('admin.clinique@portail.test'))).json();
      expectMatchesContract('GET', '/api/v2/users/me', 200, body);
      expect(body.userType).toBe('ORGANIZATION');
      expect(body.organizations).toHaveLength(1);
      expect(body.organizations[0]).toMatchObject({ name: 'Clinique des Tilleuls', type: 'SIREN', inheritsToChildren: true, role: { code: 'ADMIN_ADHERENT' } });
      expect(body.permissions.map((p: { code: string }) => p.code)).toEqual(['ORG_LIST', 'USER_CREATE', 'USER_LIST']);
    });

    it('answers an inactive account too, so that the portal can tell the person', async () => {
      const body = (await me(await t.tokenFor('inactif@portail.test'))).json();
      expect(body).toMatchObject({ email: 'inactif@portail.test', isActive: false });
    });

    it('records the sign-in time of a new token as the last login', async () => {
      const signedIn = Math.floor(Date.now() / 1000) - 60;
      const body = (await me(await t.tokenFor('lecteur@portail.test', { auth_time: signedIn }))).json();
      expect(new Date(body.lastLoginAt).getTime()).toBe(signedIn * 1000);
    });

    it('answers 404 in JSON to an unknown API path, with a request id', async () => {
      const answer = await t.app.inject({ method: 'GET', url: '/api/v2/nothing-here', headers: { authorization: `Bearer ${await t.tokenFor('backoffice@portail.test')}` } });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ error: 'NotFound', requestId: answer.headers['x-request-id'] });
    });

    it('checks the token on the matched route, whatever the spelling of the URL', async () => {
      const answer = await t.app.inject({ method: 'GET', url: '/%61pi/v2/users/me' });
      expect(answer.statusCode).toBe(401);
    });

    it('sends the security headers on every answer', async () => {
      const answer = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    });

    it('says it is alive and ready', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
    });
  });
}
