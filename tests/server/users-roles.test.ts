import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, createUserAs, PERSONAS, rowCounts, startUsersApp, userIdOf, type DemoOrganizations, type RoleIds } from './support/users-api.ts';

for (const backend of backends) {
  describe(`POST /api/v2/users/{id}/roles and PUT /roles/bulk on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
    });
    afterAll(() => t?.close());

    const siret = (i: number) => orgs.cliniqueSirets[i]!;
    const freshUser = () => createUserAs(t, PERSONAS.backoffice, [siret(0).code], [roles.COMPTABLE!]);
    const assign = (as: string, id: string, payload: unknown) => callApi(t, { as, method: 'POST', route: '/api/v2/users/{id}/roles', params: { id }, payload });
    const replace = (as: string, id: string, payload: unknown) => callApi(t, { as, method: 'PUT', route: '/api/v2/users/{id}/roles/bulk', params: { id }, payload });
    const held = (body: { assignments: { organizationCode: string; roleCode: string; inheritsToChildren: boolean }[] }) =>
      body.assignments.map((a) => `${a.organizationCode} ${a.roleCode}${a.inheritsToChildren ? ' +' : ''}`).sort();
    const db = () => t.database.handle.db;

    it('adds roles in one organization, keeps the others, bumps the version and audits user.roles', async () => {
      const created = await freshUser();
      const { status, body } = await assign(PERSONAS.backoffice, created.user.id, { organizationId: siret(1).id, roleIds: [roles.GESTIONNAIRE!, roles.ADHESION!] });
      expect(status).toBe(200);
      expect(held(body)).toEqual([`${siret(0).code} COMPTABLE`, `${siret(1).code} ADHESION`, `${siret(1).code} GESTIONNAIRE`].sort());
      expect(body.user.version).toBe(created.user.version + 1);
      expect(body.permissions).toEqual([{ code: 'USER_LIST' }]);
      const audit = await db().selectFrom('audit_log').selectAll().where('entity_id', '=', created.user.id).where('action', '=', 'user.roles').executeTakeFirstOrThrow();
      expect(audit.changes).toEqual({
        assignments: { before: [`${siret(0).code} COMPTABLE`], after: [`${siret(0).code} COMPTABLE`, `${siret(1).code} ADHESION`, `${siret(1).code} GESTIONNAIRE`].sort() },
      });
    });

    it('changes nothing for a role held already, and sets inheritsToChildren on a SIREN when asked', async () => {
      const created = await freshUser();
      const before = await rowCounts(t);
      const again = await assign(PERSONAS.backoffice, created.user.id, { organizationId: siret(0).id, roleIds: [roles.COMPTABLE!] });
      expect(again.status).toBe(200);
      expect(again.body.user.version).toBe(created.user.version);
      expect(await rowCounts(t)).toEqual(before);
      const onSiren = await assign(PERSONAS.backoffice, created.user.id, { organizationId: orgs.clinique.id, roleIds: [roles.CE_CSE_SIEGE!], inheritsToChildren: true });
      expect(held(onSiren.body)).toContain(`${orgs.clinique.code} CE_CSE_SIEGE +`);
    });

    it('refuses a sixth distinct role, and unknown organizations and roles naming the fields', async () => {
      const created = await freshUser();
      await assign(PERSONAS.backoffice, created.user.id, { organizationId: siret(0).id, roleIds: [roles.ADHESION!, roles.GESTIONNAIRE!, roles.CE_CSE_SIEGE!, roles.CABINET_COMPTABLE!] });
      const sixth = await assign(PERSONAS.backoffice, created.user.id, { organizationId: siret(1).id, roleIds: [roles.RESSOURCE_HUMAINE!] });
      expect(sixth.status).toBe(400);
      expect(sixth.body.fieldErrors).toEqual([{ field: 'body.roleIds', message: 'Vous avez atteint la limite de 5 rôles.' }]);
      const unknown = await assign(PERSONAS.backoffice, created.user.id, { organizationId: '00000000-0000-4000-8000-000000000000', roleIds: [999] });
      expect(unknown.status).toBe(400);
      expect(unknown.body.fieldErrors).toEqual([
        { field: 'body.organizationId', message: 'Organisation introuvable.' },
        { field: 'body.roleIds.0', message: 'Rôle inconnu : 999.' },
      ]);
    });

    it('keeps an employer administrator to EXTERNAL roles in their organizations, and away from protected users', async () => {
      const created = await freshUser();
      expect((await assign(PERSONAS.adminClinique, created.user.id, { organizationId: siret(2).id, roleIds: [roles.GESTIONNAIRE!] })).status).toBe(200);
      const internal = await assign(PERSONAS.adminClinique, created.user.id, { organizationId: orgs.clinique.id, roleIds: [roles.ADMIN_ADHERENT!] });
      expect(internal.status).toBe(403);
      expect(internal.body.message).toBe('Vous ne pouvez pas attribuer un rôle interne.');
      const outside = await assign(PERSONAS.adminClinique, created.user.id, { organizationId: orgs.ehpadSirets[0]!.id, roleIds: [roles.GESTIONNAIRE!] });
      expect(outside.status).toBe(400);
      expect((await assign(PERSONAS.adminEhpad, created.user.id, { organizationId: orgs.ehpadSirets[0]!.id, roleIds: [roles.GESTIONNAIRE!] })).status).toBe(404);
      const self = await assign(PERSONAS.adminEhpad, await userIdOf(t, PERSONAS.adminEhpad), { organizationId: orgs.ehpadSirets[0]!.id, roleIds: [roles.GESTIONNAIRE!] });
      expect(self.status).toBe(403);
      expect(self.body.message).toBe('Vous ne pouvez pas modifier votre propre profil');
      // Hélène Lefèvre, the clinic's other administrator (ADMIN_ADHERENT).
      const colleague = await db().selectFrom('users').select('id').where('first_name', '=', 'Hélène').where('last_name', '=', 'Lefèvre').executeTakeFirstOrThrow();
      const protectedTarget = await assign(PERSONAS.adminClinique, colleague.id, { organizationId: siret(0).id, roleIds: [roles.GESTIONNAIRE!] });
      expect(protectedTarget.status).toBe(403);
      expect(protectedTarget.body.message).toBe('Vous ne pouvez pas modifier cet utilisateur');
      expect((await assign(PERSONAS.lecteur, created.user.id, { organizationId: siret(0).id, roleIds: [roles.GESTIONNAIRE!] })).status).toBe(403);
    });

    it('replaces every assignment, naming organizations by id or by code', async () => {
      const created = await freshUser();
      const { status, body } = await replace(PERSONAS.backoffice, created.user.id, {
        assignments: [
          { organizationCode: orgs.clinique.code, roleIds: [roles.ADMIN_ADHERENT!], inheritsToChildren: true },
          { organizationId: siret(2).id, roleIds: [roles.GESTIONNAIRE!], inheritsToChildren: true },
        ],
      });
      expect(status).toBe(200);
      expect(held(body)).toEqual([`${orgs.clinique.code} ADMIN_ADHERENT +`, `${siret(2).code} GESTIONNAIRE`].sort());
      expect(body.permissions.map((p: { code: string }) => p.code)).toEqual(['ORG_LIST', 'USER_CREATE', 'USER_LIST']);
    });

    it('refuses both organizationId and organizationCode in one entry, an empty list and six distinct roles', async () => {
      const created = await freshUser();
      const both = await replace(PERSONAS.backoffice, created.user.id, { assignments: [{ organizationId: siret(0).id, organizationCode: siret(0).code, roleIds: [roles.COMPTABLE!] }] });
      expect(both.status).toBe(400);
      const empty = await replace(PERSONAS.backoffice, created.user.id, { assignments: [] });
      expect(empty.body.fieldErrors).toEqual([{ field: 'body.assignments', message: 'Veuillez sélectionner au moins un rôle.' }]);
      const six = ['ADHESION', 'COMPTABLE', 'GESTIONNAIRE', 'CE_CSE_SIEGE', 'CABINET_COMPTABLE', 'RESSOURCE_HUMAINE'].map((c) => roles[c]!);
      const tooMany = await replace(PERSONAS.backoffice, created.user.id, { assignments: [{ organizationId: siret(0).id, roleIds: six.slice(0, 5) }, { organizationId: siret(1).id, roleIds: six.slice(5) }] });
      expect(tooMany.body.fieldErrors).toEqual([{ field: 'body.assignments', message: 'Vous avez atteint la limite de 5 rôles.' }]);
      const unknown = await replace(PERSONAS.backoffice, created.user.id, { assignments: [{ organizationCode: siret(0).code, roleIds: [roles.COMPTABLE!] }, { organizationCode: '99999999900019', roleIds: [roles.COMPTABLE!] }] });
      expect(unknown.body.fieldErrors).toEqual([{ field: 'body.assignments.1.organizationCode', message: "Impossible de trouver l'organisation pour le code 99999999900019." }]);
    });

    it("replaces only an employer administrator's part of the assignments", async () => {
      const created = await freshUser();
      await db().insertInto('role_assignments').values({ user_id: created.user.id, organization_id: orgs.ehpadSirets[1]!.id, role_id: roles.CABINET_COMPTABLE! }).execute();
      const { status, body } = await replace(PERSONAS.adminClinique, created.user.id, { assignments: [{ organizationId: siret(1).id, roleIds: [roles.GESTIONNAIRE!] }] });
      expect(status).toBe(200);
      expect(held(body)).toEqual([`${siret(1).code} GESTIONNAIRE`]);
      expect(body.availableRoles.every((r: { type: string }) => r.type === 'EXTERNAL')).toBe(true);
      const fromBackOffice = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users/{id}/full-details', params: { id: created.user.id } });
      expect(held(fromBackOffice.body)).toEqual([`${orgs.ehpadSirets[1]!.code} CABINET_COMPTABLE`, `${siret(1).code} GESTIONNAIRE`].sort());
    });
  });
}
