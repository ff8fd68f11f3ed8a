import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { callApi, demoOrganizations, PERSONAS, userIdOf, type DemoOrganizations } from './support/users-api.ts';

// Read-only: one seeded database for the whole file.
for (const backend of backends) {
  describe(`GET /api/v2/users/{id} and /full-details on ${backend.name}`, () => {
    let t: TestApp;
    let orgs: DemoOrganizations;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      t = await startTestApp(backend);
      orgs = await demoOrganizations(t);
      for (const [name, email] of Object.entries(PERSONAS)) ids[name] = await userIdOf(t, email);
    });
    afterAll(async () => {
      await t?.close();
    });

    const get = (as: string, id: string) => callApi(t, { as, method: 'GET', route: '/api/v2/users/{id}', params: { id } });
    const full = (as: string, id: string) => callApi(t, { as, method: 'GET', route: '/api/v2/users/{id}/full-details', params: { id } });
    const missing = '00000000-0000-4000-8000-000000000000';

    it('answers a user with their details and one organization entry per role held', async () => {
      const { status, body, headers } = await get(PERSONAS.backoffice, ids.rhClinique!);
      expect(status).toBe(200);
      expect(body.user).toMatchObject({ id: ids.rhClinique, email: PERSONAS.rhClinique, firstName: 'Romain', lastName: 'Garnier', jobTitle: 'Gestionnaire RH', isActive: true, userType: 'ORGANIZATION', version: 1 });
      expect(body.organizations).toEqual([expect.objectContaining({ type: 'SIRET', parentCode: orgs.clinique.code, role: expect.objectContaining({ code: 'RESSOURCE_HUMAINE', type: 'EXTERNAL' }) })]);
      expect(headers.etag).toBe('"1"');
    });

    it('answers 404 for an unknown user, and 400 for an id that is not a uuid', async () => {
      expect((await get(PERSONAS.backoffice, missing)).status).toBe(404);
      const malformed = await get(PERSONAS.backoffice, 'not-a-uuid');
      expect(malformed.status).toBe(400);
      expect(malformed.body.fieldErrors[0].field).toBe('params.id');
    });

    it('lets anyone read themselves, even without USER_LIST', async () => {
      const { status, body } = await get(PERSONAS.rhClinique, ids.rhClinique!);
      expect(status).toBe(200);
      expect(body.user.email).toBe(PERSONAS.rhClinique);
      expect((await full(PERSONAS.rhClinique, ids.rhClinique!)).status).toBe(200);
    });

    it('refuses reading someone else without USER_LIST (403), whether they exist or not', async () => {
      for (const id of [ids.adminClinique!, missing]) {
        const answer = await get(PERSONAS.rhClinique, id);
        expect(answer.status).toBe(403);
        expect(answer.body.message).toBe('Permission requise : USER_LIST.');
      }
    });

    it('refuses an inactive account (403)', async () => {
      const answer = await get(PERSONAS.inactif, ids.inactif!);
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe('Votre compte est désactivé.');
    });

    it('lets the read-only back-office user read anyone', async () => {
      expect((await get(PERSONAS.lecteur, ids.adminEhpad!)).status).toBe(200);
      expect((await full(PERSONAS.lecteur, ids.inactif!)).status).toBe(200);
    });

    it("lets an employer administrator read their organizations' users and answers 404 for others, as for a missing one", async () => {
      expect((await get(PERSONAS.adminClinique, ids.rhClinique!)).status).toBe(200);
      const outside = await get(PERSONAS.adminClinique, ids.adminEhpad!);
      const absent = await get(PERSONAS.adminClinique, missing);
      expect(outside.status).toBe(404);
      expect(absent.status).toBe(404);
      expect(outside.body.message).toBe(absent.body.message);
      expect((await full(PERSONAS.adminClinique, ids.inactif!)).status).toBe(404);
      expect((await get(PERSONAS.adminEhpad, ids.rhClinique!)).status).toBe(404);
      expect((await get(PERSONAS.adminEhpad, ids.inactif!)).status).toBe(200);
    });

    it('gives the back office the edit page data: assignments, every role, the SIRENs of the user with their SIRETs', async () => {
      const { status, body, headers } = await full(PERSONAS.backoffice, ids.adminClinique!);
      expect(status).toBe(200);
      expect(headers.etag).toBe(`"${body.user.version}"`);
      expect(body.assignments).toEqual([
        expect.objectContaining({ organizationId: orgs.clinique.id, organizationType: 'SIREN', roleCode: 'ADMIN_ADHERENT', roleType: 'INTERNAL', inheritsToChildren: true, parentOrganization: null }),
      ]);
      const roleCodes = body.availableRoles.map((r: { code: string }) => r.code);
      expect(roleCodes).toEqual(expect.arrayContaining(['ADMIN_OPCO', 'ADMIN_ADHERENT', 'GESTIONNAIRE']));
      expect(body.availableRoles.find((r: { code: string }) => r.code === 'GESTIONNAIRE')).toMatchObject({ nomRole: 'Gestionnaire', metadata: { color: '#2563EB' }, permissions: [{ code: 'USER_LIST' }] });
      expect(body.availableOrganizations.map((o: { id: string }) => o.id).sort()).toEqual([orgs.clinique.id, ...orgs.cliniqueSirets.map((s) => s.id)].sort());
      expect(body.permissions.map((p: { code: string }) => p.code)).toEqual(['ORG_LIST', 'USER_CREATE', 'USER_LIST']);
    });

    it("names each SIRET's SIREN in its assignment, so that the edit page asks nothing more (issue 18)", async () => {
      const { body } = await full(PERSONAS.backoffice, ids.rhClinique!);
      const sirets = body.assignments.filter((a: { organizationType: string }) => a.organizationType === 'SIRET');
      expect(sirets.length).toBeGreaterThan(0);
      for (const a of sirets) expect(a.parentOrganization).toEqual({ id: orgs.clinique.id, code: orgs.clinique.code, name: orgs.clinique.name });
    });

    it("answers a back-office user's own permissions", async () => {
      const { body } = await full(PERSONAS.backoffice, ids.lecteur!);
      expect(body.permissions).toEqual([{ code: 'USER_LIST' }]);
      expect(body.assignments).toEqual([]);
      expect(body.availableOrganizations).toEqual([]);
    });

    it('never offers INTERNAL roles to an organization user, and offers only their organizations', async () => {
      const { status, body } = await full(PERSONAS.adminClinique, ids.rhClinique!);
      expect(status).toBe(200);
      expect(body.availableRoles.length).toBeGreaterThan(0);
      expect(body.availableRoles.every((r: { type: string }) => r.type === 'EXTERNAL')).toBe(true);
      const reach = [orgs.clinique.id, ...orgs.cliniqueSirets.map((s) => s.id)].sort();
      expect(body.availableOrganizations.map((o: { id: string }) => o.id).sort()).toEqual(reach);
    });

    it('shows an organization user only the assignments of a user within their organizations', async () => {
      // A user holding roles with two employers: each administrator sees their own part only.
      const db = t.database.handle.db;
      const comptable = await db.selectFrom('roles').select('id').where('code', '=', 'COMPTABLE').executeTakeFirstOrThrow();
      await db.insertInto('role_assignments').values({ user_id: ids.rhClinique!, organization_id: orgs.ehpadSirets[0]!.id, role_id: comptable.id }).execute();
      try {
        const fromClinique = await get(PERSONAS.adminClinique, ids.rhClinique!);
        expect(fromClinique.body.organizations.map((o: { code: string }) => o.code)).not.toContain(orgs.ehpadSirets[0]!.code);
        const fromEhpad = await get(PERSONAS.adminEhpad, ids.rhClinique!);
        expect(fromEhpad.body.organizations.map((o: { code: string; role: { code: string } }) => `${o.code} ${o.role.code}`)).toEqual([`${orgs.ehpadSirets[0]!.code} COMPTABLE`]);
        const fromBackOffice = await get(PERSONAS.backoffice, ids.rhClinique!);
        expect(fromBackOffice.body.organizations).toHaveLength(2);
        const self = await get(PERSONAS.rhClinique, ids.rhClinique!);
        expect(self.body.organizations).toHaveLength(2);
      } finally {
        await db.deleteFrom('role_assignments').where('user_id', '=', ids.rhClinique!).where('organization_id', '=', orgs.ehpadSirets[0]!.id).execute();
      }
    });
  });
}
