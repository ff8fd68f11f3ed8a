// What the Sirene import's marks do in the API (issue 17): a non-member SIREN (and its SIRETs) is left out of the
// lists where new access is chosen but keeps its users and roles; a closed SIRET is listed as closed and refused
// for new roles, its existing roles staying.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { callApi, createUserAs, startUsersApp, userIdOf, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

const BACK_OFFICE = 'backoffice@portail.test';
const ADMIN_CLINIQUE = 'admin.clinique@portail.test';
const ROUTE = '/api/v2/organizations' as const;

for (const backend of backends) {
  describe(`Sirene marks in the API on ${backend.name}`, () => {
    let t: TestApp;
    let orgs: DemoOrganizations;
    let roles: RoleIds;
    let formerMember: DemoOrganizations['all'][number];
    let closedSiret: DemoOrganizations['all'][number];
    let openSiret: DemoOrganizations['all'][number];
    let userOnClosed: { id: string; version: number };

    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
      const db = t.database.handle.db;
      // A SIREN other than the two demo employers leaves the members; the Clinique's second SIRET closes.
      formerMember = orgs.all.find((o) => o.type === 'SIREN' && o.id !== orgs.clinique.id && o.id !== orgs.ehpad.id)!;
      [openSiret, closedSiret] = orgs.cliniqueSirets as [typeof openSiret, typeof closedSiret];
      // A user holding a role on the SIRET before it closes.
      const created = await createUserAs(t, BACK_OFFICE, [closedSiret.code], [roles.GESTIONNAIRE!]);
      userOnClosed = { id: created.user.id, version: created.user.version };
      await db.updateTable('organizations').set({ member: false }).where((eb) => eb.or([eb('id', '=', formerMember.id), eb('parent_id', '=', formerMember.id)])).execute();
      await db.updateTable('organizations').set({ closed: true }).where('id', '=', closedSiret.id).execute();
    }, 60_000);
    afterAll(async () => {
      await t?.close();
    });

    const list = (as: string, query: Record<string, string | number | boolean>) => callApi(t, { as, method: 'GET', route: ROUTE, query });
    /** A role assignment request for rh.clinique, as the back office. */
    const requestRole = (organizationCode: string) =>
      callApi(t, { as: BACK_OFFICE, method: 'POST', route: '/api/v2/invitations', payload: { inviteeEmail: 'rh.clinique@portail.test', roleCode: 'COMPTABLE', invitationType: 'ROLE_ASSIGNMENT', organizationCode } });

    it('leaves non-member SIRENs and their SIRETs out of the lists for new access, and keeps them in the others', async () => {
      const forNew = await list(BACK_OFFICE, { type: 'SIREN', pageSize: 100, forNewAccess: true });
      expect(forNew.status).toBe(200);
      expect(forNew.body.items.map((o: { id: string }) => o.id)).not.toContain(formerMember.id);
      expect(forNew.body.total).toBe(orgs.all.filter((o) => o.type === 'SIREN').length - 1);
      const itsSirets = await list(BACK_OFFICE, { type: 'SIRET', parentId: formerMember.id, forNewAccess: true });
      expect(itsSirets.body.items).toEqual([]);

      const all = await list(BACK_OFFICE, { type: 'SIREN', pageSize: 100 });
      expect(all.body.items.find((o: { id: string }) => o.id === formerMember.id)).toMatchObject({ member: false, closed: false });
    });

    it('lists a closed SIRET as closed, also where new access is chosen', async () => {
      const sirets = await list(ADMIN_CLINIQUE, { type: 'SIRET', parentId: orgs.clinique.id, forNewAccess: true, pageSize: 100 });
      expect(sirets.status).toBe(200);
      expect(sirets.body.items.find((o: { id: string }) => o.id === closedSiret.id)).toMatchObject({ closed: true, member: true });
      expect(sirets.body.items.find((o: { id: string }) => o.id === openSiret.id)).toMatchObject({ closed: false });
    });

    it('refuses a new role on a closed SIRET with a 400 naming the field, and creates nothing', async () => {
      const answer = await callApi(t, {
        as: BACK_OFFICE,
        method: 'POST',
        route: '/api/v2/users/complete',
        payload: { email: 'ferme@portail.test', firstName: 'Paul', lastName: 'Martin', jobTitle: 'Comptable', phoneNumber: '0612345678', street: '3 rue Haute', postalCode: '69002', city: 'Lyon', organizationCodes: [openSiret.code, closedSiret.code], roleIds: [roles.GESTIONNAIRE!] },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.fieldErrors).toEqual([{ field: 'body.organizationCodes.1', message: `L'établissement ${closedSiret.code} est fermé : il ne peut pas recevoir de nouveau rôle.` }]);
      const found = await t.database.handle.db.selectFrom('users').select('id').where('email', '=', 'ferme@portail.test').execute();
      expect(found).toEqual([]);
    });

    it('refuses a new role on a non-member SIREN or its SIRETs with a 400 naming the field', async () => {
      const siret = orgs.all.find((o) => o.parentId === formerMember.id)!;
      const answer = await callApi(t, {
        as: BACK_OFFICE,
        method: 'POST',
        route: '/api/v2/users/{id}/roles',
        params: { id: userOnClosed.id },
        payload: { organizationId: siret.id, roleIds: [roles.COMPTABLE!] },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.fieldErrors).toEqual([{ field: 'body.organizationId', message: `L'organisation ${siret.code} n'est plus adhérente : elle ne peut pas recevoir de nouveau rôle.` }]);
    });

    it('keeps the existing role on a closed SIRET when the user is saved unchanged, and shows it', async () => {
      const detail = await callApi(t, { as: BACK_OFFICE, method: 'GET', route: '/api/v2/users/{id}', params: { id: userOnClosed.id } });
      expect(detail.body.organizations.map((o: { code: string }) => o.code)).toContain(closedSiret.code);

      const saved = await callApi(t, {
        as: BACK_OFFICE,
        method: 'PUT',
        route: '/api/v2/users/{id}/complete',
        params: { id: userOnClosed.id },
        payload: { firstName: 'Marc', lastName: "L'Hôte", email: detail.body.user.email, jobTitle: 'Comptable', phoneNumber: '0612345678', street: '3 place Bellecour', mobilePhone: '', postalCode: '69002', city: 'Lyon', organizationCodes: [closedSiret.code], roleIds: [roles.GESTIONNAIRE!] },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const held = await t.database.handle.db.selectFrom('role_assignments').select('organization_id').where('user_id', '=', userOnClosed.id).execute();
      expect(held.map((a) => a.organization_id)).toEqual([closedSiret.id]);

      // Another role on the same closed SIRET is a new role: refused.
      const more = await callApi(t, {
        as: BACK_OFFICE,
        method: 'PUT',
        route: '/api/v2/users/{id}/roles/bulk',
        params: { id: userOnClosed.id },
        payload: { assignments: [{ organizationCode: closedSiret.code, roleIds: [roles.GESTIONNAIRE!, roles.COMPTABLE!] }] },
      });
      expect(more.status).toBe(400);
      expect(more.body.fieldErrors).toEqual([{ field: 'body.assignments.0.organizationCode', message: `L'établissement ${closedSiret.code} est fermé : il ne peut pas recevoir de nouveau rôle.` }]);
    });

    it('refuses a request (invitation) on a closed SIRET or a non-member SIREN with a 400 naming the field, and records none', async () => {
      const before = await t.database.handle.db.selectFrom('invitations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const onClosed = await requestRole(closedSiret.code);
      expect(onClosed.status).toBe(400);
      expect(onClosed.body.fieldErrors).toEqual([{ field: 'body.organizationCode', message: `L'établissement ${closedSiret.code} est fermé : il ne peut pas recevoir de nouveau rôle.` }]);
      const onFormer = await callApi(t, {
        as: BACK_OFFICE,
        method: 'POST',
        route: '/api/v2/invitations',
        query: { organizationId: formerMember.id },
        payload: { inviteeEmail: 'nouvel.admin@portail.test', roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', metadata: { userProfile: { firstName: 'Léa', lastName: 'Roux' }, isNewUser: true } },
      });
      expect(onFormer.status).toBe(400);
      expect(onFormer.body.fieldErrors).toEqual([{ field: 'query.organizationId', message: `L'organisation ${formerMember.code} n'est plus adhérente : elle ne peut pas recevoir de nouveau rôle.` }]);
      const after = await t.database.handle.db.selectFrom('invitations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('refuses to approve a pending request whose SIRET closed since, with a 409, and keeps it pending', async () => {
      const db = t.database.handle.db;
      const siretOfPending = orgs.ehpadSirets[0]!;
      const made = await requestRole(siretOfPending.code);
      expect(made.status).toBe(201);
      await db.updateTable('organizations').set({ closed: true }).where('id', '=', siretOfPending.id).execute();
      try {
        const approved = await callApi(t, { as: BACK_OFFICE, method: 'POST', route: '/api/v2/invitations/{id}/approve', params: { id: made.body.id } });
        expect(approved.status).toBe(409);
        expect(approved.body.message).toBe(`L'établissement ${siretOfPending.code} est fermé : il ne peut pas recevoir de nouveau rôle.`);
        const row = await db.selectFrom('invitations').select('status').where('id', '=', made.body.id).executeTakeFirstOrThrow();
        expect(row.status).toBe('PENDING');
      } finally {
        await db.updateTable('organizations').set({ closed: false }).where('id', '=', siretOfPending.id).execute();
      }
    });

    it("still lists the users of a non-member SIREN", async () => {
      const users = await callApi(t, { as: BACK_OFFICE, method: 'GET', route: '/api/v2/users', query: { organizationId: formerMember.id, pageSize: 100 } });
      const expected = await t.database.handle.db
        .selectFrom('role_assignments')
        .innerJoin('organizations', 'organizations.id', 'role_assignments.organization_id')
        .select('role_assignments.user_id')
        .distinct()
        .where((eb) => eb.or([eb('organizations.id', '=', formerMember.id), eb('organizations.parent_id', '=', formerMember.id)]))
        .execute();
      expect(expected.length).toBeGreaterThan(0);
      expect(users.status).toBe(200);
      expect(users.body.total).toBe(expected.length);
    });

    it('answers member and closed on one organization', async () => {
      const one = await callApi(t, { as: BACK_OFFICE, method: 'GET', route: '/api/v2/organizations/{id}', params: { id: closedSiret.id } });
      expect(one.body).toMatchObject({ id: closedSiret.id, member: true, closed: true });
      expect(await userIdOf(t, ADMIN_CLINIQUE)).toBeTruthy();
    });
  });
}
