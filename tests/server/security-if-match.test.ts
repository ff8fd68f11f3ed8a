// Every change of a user honours If-Match (security review, item 7): a stale version answers 409 and
// changes nothing, the current one goes through; without the header nothing is required.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { callApi, PERSONAS, startUsersApp, type ApiCall, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

const STALE = "Cet utilisateur a été modifié par quelqu'un d'autre entre-temps. Rechargez la page.";

for (const backend of backends) {
  describe(`If-Match on the changes of a user on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
    });
    afterAll(() => t?.close());

    const db = () => t.database.handle.db;
    const snapshot = async (id: string) => ({
      user: await db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
      assignments: await db().selectFrom('role_assignments').select(['organization_id', 'role_id', 'inherits_to_children']).where('user_id', '=', id).orderBy('role_id').execute(),
    });

    const operations: [string, (id: string, email: string) => Omit<ApiCall, 'as' | 'headers'>, number, boolean?][] = [
      ['updateUser', (id, email) => ({ method: 'PUT', route: '/api/v2/users/{id}', params: { id }, payload: { firstName: 'Version', lastName: 'Contrôlée', email, metadata: null } }), 200],
      ['assignUserRoles', (id) => ({ method: 'POST', route: '/api/v2/users/{id}/roles', params: { id }, payload: { organizationId: orgs.cliniqueSirets[0]!.id, roleIds: [roles.GESTIONNAIRE!] } }), 200],
      ['replaceUserRoles', (id) => ({ method: 'PUT', route: '/api/v2/users/{id}/roles/bulk', params: { id }, payload: { assignments: [{ organizationId: orgs.cliniqueSirets[1]!.id, roleIds: [roles.ADHESION!] }] } }), 200],
      ['deactivateUser', (id) => ({ method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id } }), 200],
      ['reactivateUser', (id) => ({ method: 'POST', route: '/api/v2/users/{id}/reactivate', params: { id } }), 200, false],
      ['deleteUser', (id) => ({ method: 'DELETE', route: '/api/v2/users/{id}', params: { id }, query: { hardDelete: true } }), 204],
    ];

    it.each(operations)('%s: 409 and nothing changed on a stale If-Match, done on the current one', async (_name, request, success, active = true) => {
      const user = await fixtures(db()).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE', active });
      const before = await snapshot(user.id);
      const version = before.user!.version;
      const stale = await callApi(t, { as: PERSONAS.backoffice, ...request(user.id, user.email), headers: { 'if-match': `"${version + 1}"` } });
      expect(stale.status).toBe(409);
      expect(stale.body.message).toBe(STALE);
      expect(await snapshot(user.id)).toEqual(before);
      const current = await callApi(t, { as: PERSONAS.backoffice, ...request(user.id, user.email), headers: { 'if-match': `W/"${version}"` } });
      expect(current.status).toBe(success);
    });

    it('reads the version from a body `version` before If-Match, and needs neither', async () => {
      const user = await fixtures(db()).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE' });
      const { version } = await db().selectFrom('users').select('version').where('id', '=', user.id).executeTakeFirstOrThrow();
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: user.id } })).status).toBe(200);
      const full = (headers: Record<string, string>, bodyVersion?: number) =>
        callApi(t, {
          as: PERSONAS.backoffice,
          method: 'PUT',
          route: '/api/v2/users/{id}/full-update',
          params: { id: user.id },
          headers,
          payload: {
            firstName: 'Version',
            lastName: 'Corps',
            email: user.email,
            jobTitle: null,
            phoneNumber: null,
            mobilePhone: null,
            street: null,
            city: null,
            postalCode: null,
            isActive: true,
            roleAssignments: [{ organizationId: orgs.cliniqueSirets[0]!.id, roleIds: [roles.COMPTABLE!] }],
            ...(bodyVersion === undefined ? {} : { version: bodyVersion }),
          },
        });
      expect((await full({ 'if-match': `"${version + 1}"` }, version)).status).toBe(409);
      expect((await full({ 'if-match': `"${version}"` }, version + 1)).status).toBe(200);
    });
  });
}
