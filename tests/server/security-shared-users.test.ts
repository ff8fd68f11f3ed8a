// A person employed by two member companies, and roles that reach a whole SIREN (security review, items 3,
// 8 and 10): an organization administrator changes only what lies within their own scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { callApi, PERSONAS, startUsersApp, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

const REFUSED = 'Vous ne pouvez pas modifier cet utilisateur';
const INHERITANCE_REFUSED = 'Vous ne pouvez pas étendre un rôle à tous les établissements de ce SIREN.';

for (const backend of backends) {
  describe(`users shared by two companies on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
    });
    afterAll(() => t?.close());

    const db = () => t.database.handle.db;
    /** COMPTABLE at the clinic's first establishment, GESTIONNAIRE (USER_LIST) at the EHPAD's first one. */
    async function sharedUser(active = true) {
      const user = await fixtures(db()).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE', active });
      await db().insertInto('role_assignments').values({ user_id: user.id, organization_id: orgs.ehpadSirets[0]!.id, role_id: roles.GESTIONNAIRE!, inherits_to_children: false }).execute();
      // A last name the §5 rules accept, so that unchanged details pass them.
      await db().updateTable('users').set({ last_name: 'Partagé' }).where('id', '=', user.id).execute();
      return user;
    }
    const row = (id: string) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const held = async (id: string) =>
      (await db().selectFrom('role_assignments').innerJoin('roles', 'roles.id', 'role_assignments.role_id').select(['organization_id', 'code']).where('user_id', '=', id).orderBy('code').execute()).map(
        (a) => `${a.organization_id} ${a.code}`,
      );
    const post = (as: string, id: string, action: 'deactivate' | 'reactivate') => callApi(t, { as, method: 'POST', route: `/api/v2/users/{id}/${action}`, params: { id } });
    const edit = (user: { email: string }, overrides: Record<string, unknown> = {}) => ({
      firstName: 'Test',
      lastName: 'Partagé',
      email: user.email,
      jobTitle: 'Testeur',
      phoneNumber: null,
      mobilePhone: null,
      street: '1 rue du Test',
      city: 'Paris',
      postalCode: '75001',
      isActive: true,
      roleAssignments: [{ organizationId: orgs.cliniqueSirets[0]!.id, roleIds: [roles.COMPTABLE!] }],
      ...overrides,
    });

    it('refuses either administrator to deactivate, reactivate or soft-delete the shared user (403); the back office may', async () => {
      const user = await sharedUser();
      for (const as of [PERSONAS.adminClinique, PERSONAS.adminEhpad]) {
        const answer = await post(as, user.id, 'deactivate');
        expect(answer.status).toBe(403);
        expect(answer.body.message).toBe(REFUSED);
        expect((await callApi(t, { as, method: 'DELETE', route: '/api/v2/users/{id}', params: { id: user.id } })).status).toBe(403);
      }
      expect((await row(user.id)).is_active).toBe(true);
      expect((await post(PERSONAS.backoffice, user.id, 'deactivate')).status).toBe(200);
      expect((await post(PERSONAS.adminClinique, user.id, 'reactivate')).status).toBe(403);
      expect((await row(user.id)).is_active).toBe(false);
    });

    it("refuses an administrator to change the shared user's e-mail, names or details (403), and changes nothing", async () => {
      const user = await sharedUser();
      const before = await row(user.id);
      const update = (payload: object) => callApi(t, { as: PERSONAS.adminClinique, method: 'PUT', route: '/api/v2/users/{id}', params: { id: user.id }, payload });
      const identity = { firstName: 'Test', lastName: 'Partagé', email: user.email, metadata: null };
      for (const payload of [{ ...identity, email: 'detourne@exemple.fr' }, { ...identity, firstName: 'Autre' }]) {
        const answer = await update(payload);
        expect(answer.status).toBe(403);
        expect(answer.body.message).toBe(REFUSED);
      }
      const full = (overrides: Record<string, unknown>) =>
        callApi(t, { as: PERSONAS.adminClinique, method: 'PUT', route: '/api/v2/users/{id}/full-update', params: { id: user.id }, payload: edit(user, overrides) });
      for (const overrides of [{ email: 'detourne@exemple.fr' }, { jobTitle: 'Autre poste' }, { isActive: false }]) expect((await full(overrides)).status).toBe(403);
      expect(await row(user.id)).toEqual(before);
    });

    it("lets an administrator change the shared user's roles within their scope, keeping the other company's", async () => {
      const user = await sharedUser();
      const full = await callApi(t, {
        as: PERSONAS.adminClinique,
        method: 'PUT',
        route: '/api/v2/users/{id}/full-update',
        params: { id: user.id },
        payload: edit(user, { roleAssignments: [{ organizationId: orgs.cliniqueSirets[1]!.id, roleIds: [roles.ADHESION!] }] }),
      });
      expect(full.status).toBe(200);
      const added = await callApi(t, { as: PERSONAS.adminClinique, method: 'POST', route: '/api/v2/users/{id}/roles', params: { id: user.id }, payload: { organizationId: orgs.cliniqueSirets[1]!.id, roleIds: [roles.COMPTABLE!] } });
      expect(added.status).toBe(200);
      expect((await held(user.id)).sort()).toEqual([`${orgs.cliniqueSirets[1]!.id} ADHESION`, `${orgs.cliniqueSirets[1]!.id} COMPTABLE`, `${orgs.ehpadSirets[0]!.id} GESTIONNAIRE`].sort());
    });

    it('still lets an administrator deactivate and edit a user of their company alone', async () => {
      const user = await fixtures(db()).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE' });
      expect((await callApi(t, { as: PERSONAS.adminClinique, method: 'PUT', route: '/api/v2/users/{id}', params: { id: user.id }, payload: { firstName: 'Nouveau', lastName: 'Nom', email: user.email, metadata: null } })).status).toBe(200);
      expect((await post(PERSONAS.adminClinique, user.id, 'deactivate')).status).toBe(200);
    });

    it('exposes in full-details only the permissions of the assignments the caller sees', async () => {
      const user = await sharedUser();
      const full = (as: string) => callApi(t, { as, method: 'GET', route: '/api/v2/users/{id}/full-details', params: { id: user.id } });
      const clinic = await full(PERSONAS.adminClinique);
      expect(clinic.body.assignments.map((a: { roleCode: string }) => a.roleCode)).toEqual(['COMPTABLE']);
      expect(clinic.body.permissions).toEqual([]);
      expect((await full(PERSONAS.adminEhpad)).body.permissions).toEqual([{ code: 'USER_LIST' }]);
      expect((await full(PERSONAS.backoffice)).body.permissions).toEqual([{ code: 'USER_LIST' }]);
    });
  });

  describe(`inheritsToChildren given by organization users on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    /** An administrator of the clinic's SIREN without inheritance: the SIREN is theirs, its establishments are not. */
    let narrowAdmin: string;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
      narrowAdmin = (await fixtures(t.database.handle.db).user({ organizationId: orgs.clinique.id, roleCode: 'ADMIN_ADHERENT', inherits: false })).email;
    });
    afterAll(() => t?.close());

    const sirenUser = () => fixtures(t.database.handle.db).user({ organizationId: orgs.clinique.id, roleCode: 'COMPTABLE' });
    const inheriting = { organizationId: '', roleIds: [] as number[], inheritsToChildren: true };
    const calls = (id: string, inherits: boolean) => [
      { method: 'PUT' as const, route: '/api/v2/users/{id}/roles/bulk' as const, params: { id }, payload: { assignments: [{ ...inheriting, organizationId: orgs.clinique.id, roleIds: [roles.COMPTABLE!], inheritsToChildren: inherits }] } },
      { method: 'POST' as const, route: '/api/v2/users/{id}/roles' as const, params: { id }, payload: { organizationId: orgs.clinique.id, roleIds: [roles.GESTIONNAIRE!], inheritsToChildren: inherits } },
    ];

    it('refuses (403) an organization user who does not cover every SIRET of the SIREN, and writes nothing', async () => {
      const user = await sirenUser();
      for (const call of calls(user.id, true)) {
        const answer = await callApi(t, { as: narrowAdmin, ...call });
        expect(answer.status).toBe(403);
        expect(answer.body.message).toBe(INHERITANCE_REFUSED);
      }
      const stored = await t.database.handle.db.selectFrom('role_assignments').select(['role_id', 'inherits_to_children']).where('user_id', '=', user.id).execute();
      expect(stored).toEqual([{ role_id: roles.COMPTABLE!, inherits_to_children: false }]);
      for (const call of calls(user.id, false)) expect((await callApi(t, { as: narrowAdmin, ...call })).status).toBe(200);
    });

    it('lets an administrator whose scope holds every SIRET of the SIREN give inheritance', async () => {
      const user = await sirenUser();
      for (const call of calls(user.id, true)) expect((await callApi(t, { as: PERSONAS.adminClinique, ...call })).status).toBe(200);
      const stored = await t.database.handle.db.selectFrom('role_assignments').select('inherits_to_children').where('user_id', '=', user.id).execute();
      expect(stored.map((a) => a.inherits_to_children)).toEqual([true, true]);
    });

    it('keeps an inheritance the user holds already when the narrow administrator sends it back unchanged', async () => {
      const user = await sirenUser();
      await t.database.handle.db.updateTable('role_assignments').set({ inherits_to_children: true }).where('user_id', '=', user.id).execute();
      const [bulk] = calls(user.id, true);
      expect((await callApi(t, { as: narrowAdmin, ...bulk! })).status).toBe(200);
    });
  });
}
