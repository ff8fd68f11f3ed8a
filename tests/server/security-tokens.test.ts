// Hostile bearer tokens (security review, issue 9): each one against protected operations and against
// /users/me answers 401 with the API's error body; an inactive account's valid token answers 403
// everywhere but /users/me. The verifier's own rules are unit-tested in token-verifier.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSPKI, importJWK, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import { backends } from './db/test-databases.ts';
import { createUserAs, PERSONAS, startUsersApp, userIdOf, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

/** Protected operations (any signed-in, active account may call them) and the profile, open to inactive accounts. */
// The Accueil's counts and an account state's list too (second security review: the screens a returning person opens first).
const PROTECTED = ['/api/v2/users', '/api/v2/roles', '/api/v2/organizations?type=SIREN', '/api/v2/home', '/api/v2/users?accountState=dormant'];
const ME = '/api/v2/users/me';

for (const backend of backends) {
  describe(`hostile bearer tokens on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    const hostile = new Map<string, string>();

    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
      const now = Math.floor(Date.now() / 1000);
      const subjectOf = async (email: string) =>
        (await t.database.handle.db.selectFrom('identity_accounts').select('subject').where('email', '=', email).executeTakeFirstOrThrow()).subject;
      const backoffice = await subjectOf(PERSONAS.backoffice);
      const valid: JWTPayload = { iss: t.issuer, aud: t.audience, sub: backoffice, iat: now, exp: now + 600 };
      const publicJwk = t.keys.publicJwks.keys[0]!;

      hostile.set("alg 'none'", new UnsecuredJWT(valid).encode());
      // Key confusion: the public key's PEM text used as an HMAC secret, for a verifier that would take the header's word.
      const publicPem = await exportSPKI((await importJWK(publicJwk, 'RS256')) as CryptoKey);
      hostile.set('HS256 signed with the public key', await new SignJWT(valid).setProtectedHeader({ alg: 'HS256', kid: publicJwk.kid }).sign(new TextEncoder().encode(publicPem)));
      hostile.set('expired an hour ago', await t.sign({ ...valid, iat: now - 7200, exp: now - 3600 }));
      hostile.set('not valid before an hour from now', await t.sign({ ...valid, nbf: now + 3600 }));
      hostile.set('of another issuer', await t.sign({ ...valid, iss: 'https://attacker.example/oidc' }));
      hostile.set('for another audience', await t.sign({ ...valid, aud: 'another-application' }));
      hostile.set('with an unknown kid', await t.sign(valid, { kid: 'unknown-key-id' }));
      // A valid token of the read-only back office, its payload rewritten to name the full back office, its signature kept.
      const [header, , signature] = (await t.tokenFor(PERSONAS.lecteur)).split('.');
      const forgedPayload = Buffer.from(JSON.stringify({ ...valid, email: PERSONAS.backoffice })).toString('base64url');
      hostile.set('with a tampered payload', `${header}.${forgedPayload}.${signature}`);
      const { sub: _sub, ...withoutSubject } = valid;
      hostile.set('without sub', await t.sign(withoutSubject));
      // A person whose portal account was deleted: the token is well signed and unexpired, the user row is gone.
      const created = await createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!]);
      const deletedSubject = (await t.database.handle.db.selectFrom('users').select('auth_id').where('id', '=', created.user.id).executeTakeFirstOrThrow()).auth_id!;
      const deletion = await t.app.inject({ method: 'DELETE', url: `/api/v2/users/${created.user.id}?hardDelete=true`, headers: { authorization: `Bearer ${await t.tokenFor(PERSONAS.backoffice)}` } });
      expect(deletion.statusCode, deletion.body).toBeLessThan(300);
      expect(await t.database.handle.db.selectFrom('users').select('id').where('auth_id', '=', deletedSubject).executeTakeFirst()).toBeUndefined();
      hostile.set("of a deleted user", await t.sign({ ...valid, sub: deletedSubject, email: created.user.email }));
    });
    afterAll(() => t?.close());

    const call = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

    it('refuses every hostile token with 401 and the error body, on protected operations and on /users/me', async () => {
      expect(hostile.size).toBe(10);
      const wrong: string[] = [];
      for (const [name, token] of hostile) {
        for (const url of [...PROTECTED, ME]) {
          const answer = await call(url, token);
          const body = answer.json();
          const ok =
            answer.statusCode === 401 &&
            body.error === 'Unauthorized' &&
            typeof body.message === 'string' &&
            body.requestId === answer.headers['x-request-id'] &&
            Object.keys(body).sort().join() === 'error,message,requestId';
          if (!ok) wrong.push(`${name} on ${url}: ${answer.statusCode} ${answer.body}`);
        }
      }
      expect(wrong).toEqual([]);
    });

    it('accepts the same claims signed properly (the refusals above come from what was changed)', async () => {
      const now = Math.floor(Date.now() / 1000);
      const subject = (await t.database.handle.db.selectFrom('users').select('auth_id').where('id', '=', await userIdOf(t, PERSONAS.backoffice)).executeTakeFirstOrThrow()).auth_id!;
      const token = await t.sign({ iss: t.issuer, aud: t.audience, sub: subject, iat: now, exp: now + 600 });
      for (const url of [...PROTECTED, ME]) expect((await call(url, token)).statusCode, url).toBe(200);
    });

    it("answers an inactive account's valid token 403 on protected operations, and its own profile (200)", async () => {
      const token = await t.tokenFor(PERSONAS.inactif);
      for (const url of PROTECTED) {
        const answer = await call(url, token);
        expect(answer.statusCode, url).toBe(403);
        expect(answer.json()).toEqual({ error: 'Forbidden', message: 'Votre compte est désactivé.', requestId: answer.headers['x-request-id'] });
      }
      const me = await call(ME, token);
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ email: PERSONAS.inactif, isActive: false });
    });
  });
}
