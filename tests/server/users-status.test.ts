import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, createUserAs, PERSONAS, rowCounts, startUsersApp, userIdOf, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import { DEMO_PASSWORD } from '../../server/seed/seed.ts';
import { setIdentityPassword } from '../../server/identity/local-accounts.ts';

const PASSWORD = 'Mot-de-passe-de-test-2026';

for (const backend of backends) {
  describe(`deactivate, reactivate and delete users on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
    });
    afterAll(() => t?.close());

    const freshUser = () => createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!]);
    const post = (as: string, id: string, action: 'deactivate' | 'reactivate') => callApi(t, { as, method: 'POST', route: `/api/v2/users/{id}/${action}`, params: { id } });
    const remove = (as: string, id: string, hardDelete?: boolean) => callApi(t, { as, method: 'DELETE', route: '/api/v2/users/{id}', params: { id }, query: { hardDelete } });
    const db = () => t.database.handle.db;
    const identityOf = async (userId: string) => {
      const user = await db().selectFrom('users').select('auth_id').where('id', '=', userId).executeTakeFirstOrThrow();
      return db().selectFrom('identity_accounts').selectAll().where('subject', '=', user.auth_id!).executeTakeFirstOrThrow();
    };
    const actions = async (userId: string) => (await db().selectFrom('audit_log').select('action').where('entity_id', '=', userId).orderBy('id').execute()).map((a) => a.action);

    /** Signs in at the local provider's page: the page's HTML and status, or the redirect that follows a success. */
    async function signIn(email: string, password: string) {
      const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
      const query = new URLSearchParams({ client_id: t.audience, redirect_uri: 'https://localhost:8443/redirect.html', response_type: 'code', scope: 'openid email profile', code_challenge: challenge, code_challenge_method: 'S256', state: 's', nonce: 'n' });
      const start = await t.app.inject({ method: 'GET', url: `/oidc/auth?${query}` });
      const cookies = ([] as string[]).concat(start.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
      return t.app.inject({ method: 'POST', url: `${start.headers.location}/login`, headers: { cookie: cookies, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ email, password }).toString() });
    }

    it('deactivates a user and disables their identity; a second time changes nothing', async () => {
      const created = await freshUser();
      const { status, body } = await post(PERSONAS.backoffice, created.user.id, 'deactivate');
      expect(status).toBe(200);
      expect(body).toMatchObject({ id: created.user.id, isActive: false, version: created.user.version + 1, roles: ['COMPTABLE'] });
      expect((await identityOf(created.user.id)).enabled).toBe(false);
      const again = await post(PERSONAS.backoffice, created.user.id, 'deactivate');
      expect(again.body).toMatchObject({ isActive: false, version: created.user.version + 1 });
      expect(await actions(created.user.id)).toEqual(['user.create', 'user.deactivate']);
    });

    it('keeps a deactivated user out of the API but lets them read their profile', async () => {
      const created = await freshUser();
      await post(PERSONAS.backoffice, created.user.id, 'deactivate');
      const me = await callApi(t, { as: created.user.email, method: 'GET', route: '/api/v2/users/me' });
      expect(me.body.isActive).toBe(false);
      const list = await callApi(t, { as: created.user.email, method: 'GET', route: '/api/v2/users/{id}', params: { id: created.user.id } });
      expect(list.status).toBe(403);
      expect(list.body.message).toBe('Votre compte est désactivé.');
    });

    it('reactivates a user and enables their identity; a second time changes nothing', async () => {
      const created = await freshUser();
      await post(PERSONAS.backoffice, created.user.id, 'deactivate');
      const { status, body } = await post(PERSONAS.backoffice, created.user.id, 'reactivate');
      expect(status).toBe(200);
      expect(body).toMatchObject({ isActive: true, version: created.user.version + 2 });
      expect((await identityOf(created.user.id)).enabled).toBe(true);
      expect((await post(PERSONAS.backoffice, created.user.id, 'reactivate')).body.version).toBe(created.user.version + 2);
      expect(await actions(created.user.id)).toEqual(['user.create', 'user.deactivate', 'user.reactivate']);
    });

    it('applies the rights of changes: USER_CREATE, scope (404), never oneself, never a protected user', async () => {
      const created = await freshUser();
      for (const as of [PERSONAS.lecteur, PERSONAS.rhClinique, PERSONAS.inactif]) expect((await post(as, created.user.id, 'deactivate')).status).toBe(403);
      expect((await post(PERSONAS.adminEhpad, created.user.id, 'deactivate')).status).toBe(404);
      expect((await post(PERSONAS.adminClinique, created.user.id, 'deactivate')).status).toBe(200);
      expect((await post(PERSONAS.adminClinique, created.user.id, 'reactivate')).status).toBe(200);
      const self = await post(PERSONAS.backoffice, await userIdOf(t, PERSONAS.backoffice), 'deactivate');
      expect(self.status).toBe(403);
      expect(self.body.message).toBe('Vous ne pouvez pas modifier votre propre profil');
      const colleague = await db().selectFrom('users').select('id').where('first_name', '=', 'Hélène').where('last_name', '=', 'Lefèvre').executeTakeFirstOrThrow();
      const protectedTarget = await post(PERSONAS.adminClinique, colleague.id, 'deactivate');
      expect(protectedTarget.status).toBe(403);
      expect(protectedTarget.body.message).toBe('Vous ne pouvez pas modifier cet utilisateur');
      expect((await remove(PERSONAS.adminClinique, colleague.id)).status).toBe(403);
    });

    it('deactivates on DELETE without hardDelete', async () => {
      const created = await freshUser();
      const { status, body } = await remove(PERSONAS.adminClinique, created.user.id);
      expect(status).toBe(204);
      expect(body).toBeUndefined();
      const row = await db().selectFrom('users').select('is_active').where('id', '=', created.user.id).executeTakeFirstOrThrow();
      expect(row.is_active).toBe(false);
    });

    it('deletes a user permanently: assignments and identity gone, invitations still readable (their pending ones cancelled, pseudonymised), total lowered, audited', async () => {
      const created = await freshUser();
      const identity = await identityOf(created.user.id);
      const invitation = await db()
        .insertInto('invitations')
        .values({ invitee_email: 'someone@exemple.fr', organization_id: orgs.clinique.id, organization_code: orgs.clinique.code, organization_name: 'Clinique des Tilleuls', role_id: roles.ADMIN_ADHERENT!, role_code: 'ADMIN_ADHERENT', role_name: 'Admin', invitation_type: 'NEW_ADMIN', sender_user_id: created.user.id, sender_email: created.user.email })
        .returning('id')
        .executeTakeFirstOrThrow();
      const listed = async () => (await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users', query: { includeInactive: true } })).body.total as number;
      const totalBefore = await listed();
      const before = await rowCounts(t);

      const { status } = await remove(PERSONAS.backoffice, created.user.id, true);
      expect(status).toBe(204);
      expect(await listed()).toBe(totalBefore - 1);
      expect(await rowCounts(t)).toMatchObject({ users: before.users - 1, roleAssignments: before.roleAssignments - 1, identities: before.identities - 1, invitations: before.invitations, audit: before.audit + 2 });
      expect(await db().selectFrom('identity_accounts').select('subject').where('subject', '=', identity.subject).executeTakeFirst()).toBeUndefined();
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users/{id}', params: { id: created.user.id } })).status).toBe(404);
      const kept = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/invitations/{id}', params: { id: String(invitation.id) } });
      expect(kept.status).toBe(200);
      // Issue 23: the erasure cancelled the request they made, and keeps their pseudonym in place of their address.
      const { number } = await db().selectFrom('erased_persons').select('number').where('user_id', '=', created.user.id).executeTakeFirstOrThrow();
      expect(kept.body).toMatchObject({ status: 'CANCELLED', senderEmail: `Utilisateur supprimé n° ${Number(number)}` });
      const audit = await db().selectFrom('audit_log').selectAll().where('entity_id', '=', created.user.id).where('action', '=', 'user.delete').executeTakeFirstOrThrow();
      expect(audit.changes).toMatchObject({ email: { before: '(effacé)', after: null }, assignments: { after: [] } });
    });

    it('keeps permanent delete to back-office users holding USER_DELETE and B2C_USER_DISABLE, never oneself', async () => {
      const created = await freshUser();
      for (const as of [PERSONAS.lecteur, PERSONAS.adminClinique, PERSONAS.rhClinique, PERSONAS.inactif]) {
        const answer = await remove(as, created.user.id, true);
        expect(answer.status).toBe(403);
      }
      expect((await remove(PERSONAS.backoffice, '00000000-0000-4000-8000-000000000000', true)).status).toBe(404);
      const self = await remove(PERSONAS.backoffice, await userIdOf(t, PERSONAS.backoffice), true);
      expect(self.status).toBe(403);
      expect(await db().selectFrom('users').select('id').where('id', '=', created.user.id).executeTakeFirst()).toBeDefined();
    });

    it("tells a deactivated person with the right password 'Votre compte est désactivé.' at the local sign-in page", async () => {
      const created = await freshUser();
      await setIdentityPassword(db(), (await identityOf(created.user.id)).subject, PASSWORD);
      await post(PERSONAS.backoffice, created.user.id, 'deactivate');
      const right = await signIn(created.user.email, PASSWORD);
      expect(right.statusCode).toBe(403);
      expect(right.body).toContain('Votre compte est désactivé.');
      const wrong = await signIn(created.user.email, 'not-the-password');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).toContain('Adresse email ou mot de passe incorrect.');
      expect(wrong.body).not.toContain('Votre compte est désactivé.');
      await post(PERSONAS.backoffice, created.user.id, 'reactivate');
      expect((await signIn(created.user.email, PASSWORD)).statusCode).toBe(303);
    });

    it('lets the seeded inactive account sign in (its identity is enabled): the portal tells it', async () => {
      const answer = await signIn(PERSONAS.inactif, DEMO_PASSWORD);
      expect(answer.statusCode).toBe(303);
      expect((await callApi(t, { as: PERSONAS.inactif, method: 'GET', route: '/api/v2/users/me' })).body.isActive).toBe(false);
    });
  });
}
