// Issue 19: the server says what the caller may do on each row (allowedActions), from the policy that enforces it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { callApi, PERSONAS, startUsersApp, userIdOf, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

for (const backend of backends) {
  describe(`allowedActions on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
    }, 300_000);
    afterAll(() => t?.close());

    const db = () => t.database.handle.db;
    const clinicUser = (active = true, roleCode = 'COMPTABLE') => fixtures(db()).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode, active });
    /** allowedActions of a user as `as` reads them, in the list and on the user's own answer. */
    async function actionsFor(as: string, id: string) {
      const listed = await callApi(t, { as, method: 'GET', route: '/api/v2/users', query: { search: (await db().selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email, includeInactive: true } });
      const read = await callApi(t, { as, method: 'GET', route: '/api/v2/users/{id}', params: { id } });
      expect(read.body.allowedActions).toEqual(listed.body.items.find((u: { id: string }) => u.id === id)?.allowedActions);
      // The edit page's view says the same, so that the page never works out on its own whether it may edit.
      const full = await callApi(t, { as, method: 'GET', route: '/api/v2/users/{id}/full-details', params: { id } });
      expect(full.body.allowedActions).toEqual(read.body.allowedActions);
      return read.body.allowedActions;
    }

    it('tells the read-only back office it may change nobody (only download their data, issue 23), and the back office everything', async () => {
      const user = await clinicUser();
      expect(await actionsFor(PERSONAS.lecteur, user.id)).toEqual(['exportPersonalData']);
      // A person who never signed in may be sent a new set-up link (issue 22); not once inactive.
      expect(await actionsFor(PERSONAS.backoffice, user.id)).toEqual(['edit', 'deactivate', 'delete', 'resendInvitation', 'exportPersonalData']);
      const inactive = await clinicUser(false);
      expect(await actionsFor(PERSONAS.backoffice, inactive.id)).toEqual(['edit', 'reactivate', 'delete', 'exportPersonalData']);
    });

    it("tells an administrator what the policy lets them do: not on an administrator, not on themselves, only roles on another company's person", async () => {
      const user = await clinicUser();
      expect(await actionsFor(PERSONAS.adminClinique, user.id)).toEqual(['edit', 'deactivate', 'resendInvitation']);
      expect(await actionsFor(PERSONAS.adminClinique, (await clinicUser(false)).id)).toEqual(['edit', 'reactivate']);
      expect(await actionsFor(PERSONAS.adminClinique, (await clinicUser(true, 'ADMIN_ADHERENT')).id)).toEqual([]);
      // Oneself: no change, only one's own data.
      expect(await actionsFor(PERSONAS.adminClinique, await userIdOf(t, PERSONAS.adminClinique))).toEqual(['exportPersonalData']);
      const shared = await clinicUser();
      await db().insertInto('role_assignments').values({ user_id: shared.id, organization_id: orgs.ehpadSirets[0]!.id, role_id: roles.ADHESION!, inherits_to_children: false }).execute();
      expect(await actionsFor(PERSONAS.adminClinique, shared.id)).toEqual(['edit']);
      expect((await callApi(t, { as: PERSONAS.adminClinique, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: shared.id } })).status).toBe(403);
    });

    it('answers a change with what the caller may do next', async () => {
      const user = await clinicUser();
      const done = await callApi(t, { as: PERSONAS.adminClinique, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: user.id } });
      expect(done.body.allowedActions).toEqual(['edit', 'reactivate']);
    });

    it('lets the back office holding USER_CREATE decide (and cancel, issue 22) a pending request, nobody a decided one, and tells the read-only back office it may not', async () => {
      const { id } = await fixtures(db()).pendingInvitation({ sirenId: orgs.clinique.id });
      const read = (as: string) => callApi(t, { as, method: 'GET', route: '/api/v2/invitations/{id}', params: { id } });
      expect((await read(PERSONAS.backoffice)).body.allowedActions).toEqual(['approve', 'reject', 'cancel']);
      expect((await read(PERSONAS.lecteur)).body.allowedActions).toEqual([]);
      const listed = await callApi(t, { as: PERSONAS.lecteur, method: 'GET', route: '/api/v2/invitations', query: { pageSize: 100 } });
      expect(listed.body.items.every((i: { allowedActions: string[] }) => i.allowedActions.length === 0)).toBe(true);
      const rejected = await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/invitations/{id}/reject', params: { id }, payload: { rejectionReason: 'Demande incomplète, à renouveler.' } });
      expect(rejected.body.allowedActions).toEqual([]);
    });
  });
}
