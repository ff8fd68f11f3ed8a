// Inputs the database cannot store or reach: NUL characters in any text, and pages far beyond the data
// (security review, item 2). Each answers 400 naming the field, never 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { freshEmail, invitationsApi, newPersonMetadata } from './support/invitations.ts';
import { callApi, PERSONAS, startUsersApp, type ApiCall, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

const NUL_MESSAGE = "Le caractère nul (U+0000) n'est pas autorisé";

for (const backend of backends) {
  describe(`NUL characters and out-of-range pages on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
    });
    afterAll(() => t?.close());

    const clinicUser = () => fixtures(t.database.handle.db).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE' });
    /** The call answers 400 with exactly this field refused. */
    async function refused(call: Omit<ApiCall, 'as'>, field: string, message = NUL_MESSAGE) {
      const answer = await callApi(t, { as: PERSONAS.backoffice, ...call });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.fieldErrors).toEqual([{ field, message }]);
    }

    it.each([
      ['/api/v2/users', 'search'],
      ['/api/v2/organizations', 'search'],
      ['/api/v2/invitations', 'search'],
    ] as const)('refuses a NUL character in the query of %s (400 on query.%s)', async (route, name) => {
      await refused({ method: 'GET', route, query: { [name]: 'a\u0000b' } }, `query.${name}`);
    });

    it("refuses a NUL character in updateUser's metadata text, and in a value that text holds", async () => {
      const user = await clinicUser();
      const payload = { firstName: 'Test', lastName: 'Utilisateur', email: user.email };
      const route = '/api/v2/users/{id}';
      await refused({ method: 'PUT', route, params: { id: user.id }, payload: { ...payload, metadata: '{"jobTitle":"Chef\u0000"}' } }, 'body.metadata');
      await refused({ method: 'PUT', route, params: { id: user.id }, payload: { ...payload, metadata: '{"street":"1 rue\\u0000"}' } }, 'body.metadata.street');
    });

    it('refuses a NUL character in the free-text fields of the edit page and of an invitation', async () => {
      const user = await clinicUser();
      const edit = {
        firstName: 'Test',
        lastName: 'Utilisateur',
        email: user.email,
        jobTitle: 'Chef\u0000',
        phoneNumber: null,
        mobilePhone: null,
        street: null,
        city: 'Lyon',
        postalCode: null,
        isActive: true,
        roleAssignments: [{ organizationId: orgs.cliniqueSirets[0]!.id, roleIds: [roles.COMPTABLE!] }],
      };
      await refused({ method: 'PUT', route: '/api/v2/users/{id}/full-update', params: { id: user.id }, payload: edit }, 'body.jobTitle');
      const invitation = { inviteeEmail: freshEmail(), roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: orgs.clinique.code, metadata: newPersonMetadata({ street: '1 rue\u0000' }) };
      await refused({ method: 'POST', route: '/api/v2/invitations', payload: invitation }, 'body.metadata.userProfile.street');
      const pending = await invitationsApi(t).create(PERSONAS.backoffice, { ...invitation, metadata: newPersonMetadata() });
      await refused({ method: 'POST', route: '/api/v2/invitations/{id}/reject', params: { id: String(pending.body.id) }, payload: { rejectionReason: 'Motif assez long\u0000' } }, 'body.rejectionReason');
    });

    it.each(['/api/v2/users', '/api/v2/organizations', '/api/v2/invitations', '/api/v2/audit'] as const)('refuses page=1e300 on %s (400 on query.page)', async (route) => {
      await refused({ method: 'GET', route, query: { page: '1e300' } }, 'query.page', 'Valeur maximale : 1000000');
    });

    it.each(['/api/v2/users', '/api/v2/organizations', '/api/v2/invitations', '/api/v2/audit'] as const)('answers an empty last page at page=1000000 on %s', async (route) => {
      const answer = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route, query: { page: 1_000_000, pageSize: 100 } });
      expect(answer.status).toBe(200);
      expect(answer.body.items ?? answer.body.invitations).toEqual([]);
      expect(answer.body.page).toBe(1_000_000);
    });
  });
}
