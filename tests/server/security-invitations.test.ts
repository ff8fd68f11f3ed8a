// Invitations: what their creation reveals to organization users (security review, item 4), and the
// 5-role limit of spec §5 at approval (item 5).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { firstSiretOf, freshEmail, invitationsApi, newPersonMetadata, organizationByName, traceCounts } from './support/invitations.ts';
import { createUserAs, PERSONAS, roleIds, type RoleIds } from './support/users-api.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

for (const backend of backends) {
  describe(`invitation security on ${backend.name}`, () => {
    let t: TestApp;
    let api: ReturnType<typeof invitationsApi>;
    let roles: RoleIds;
    let clinique: { id: string; code: string };
    let ehpad: { id: string; code: string };
    let cliniqueSiret: { id: string; code: string };

    beforeAll(async () => {
      t = await startTestApp(backend);
      api = invitationsApi(t);
      roles = await roleIds(t);
      clinique = await organizationByName(t, 'Clinique des Tilleuls');
      ehpad = await organizationByName(t, 'EHPAD Les Glycines');
      cliniqueSiret = await firstSiretOf(t, clinique.id);
    });
    afterAll(async () => {
      await t?.close();
    });

    const adminRequest = (inviteeEmail: string, metadata?: object) => ({ inviteeEmail, roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: clinique.code, ...(metadata ? { metadata } : {}) });
    const withoutRequestId = ({ requestId: _id, ...rest }: { requestId?: string }) => rest;

    it("answers an organization user's administrator request alike whether the e-mail has no account, an organization one or a back-office one", async () => {
      const answers = [];
      for (const email of [freshEmail('inconnu'), PERSONAS.rhClinique, PERSONAS.lecteur]) {
        const answer = await api.create(PERSONAS.adminClinique, adminRequest(email));
        answers.push({ status: answer.status, body: withoutRequestId(answer.body) });
      }
      expect(answers[0]).toMatchObject({ status: 400, body: { fieldErrors: [{ field: 'body.metadata.userProfile.firstName' }, { field: 'body.metadata.userProfile.lastName' }] } });
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      for (const email of [freshEmail('inconnu'), PERSONAS.rhClinique, PERSONAS.lecteur]) {
        expect((await api.create(PERSONAS.adminClinique, adminRequest(email, newPersonMetadata()))).status).toBe(201);
      }
    });

    it("leaves the refusal of a back-office invitee to the approval: 409, nothing written, still pending", async () => {
      const created = await api.create(PERSONAS.adminClinique, { ...adminRequest(PERSONAS.backoffice, newPersonMetadata()), organizationCode: undefined }, `organizationId=${clinique.id}`);
      expect(created.status).toBe(201);
      const before = await traceCounts(t);
      const { status, body } = await api.approve(PERSONAS.backoffice, created.body.id);
      expect(status).toBe(409);
      expect(body.message).toBe(`« ${PERSONAS.backoffice} » est un compte du back-office : un rôle d'organisation ne peut pas lui être attribué.`);
      expect(await traceCounts(t)).toEqual(before);
      expect((await api.get(PERSONAS.backoffice, created.body.id)).body.status).toBe('PENDING');
    });

    it("answers 404 for another company's organizationId before comparing it with organizationCode, as for a missing one", async () => {
      const payload = adminRequest(freshEmail(), newPersonMetadata());
      const other = await api.create(PERSONAS.adminClinique, payload, `organizationId=${ehpad.id}`);
      const missing = await api.create(PERSONAS.adminClinique, payload, `organizationId=${randomUUID()}`);
      expect(other.status).toBe(404);
      expect(withoutRequestId(other.body)).toEqual(withoutRequestId(missing.body));
      expect(other.body.message).toBe('Organisation introuvable.');
      // Within the scope, a mismatch is still named.
      const mismatch = await api.create(PERSONAS.backoffice, payload, `organizationId=${ehpad.id}`);
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.fieldErrors[0].field).toBe('body.organizationCode');
    });

    describe('the 5-role limit at approval', () => {
      const FIVE = ['COMPTABLE', 'GESTIONNAIRE', 'ADHESION', 'DECIDEUR_SIGNATAIRE', 'RESSOURCE_HUMAINE'];
      const userWithFiveRoles = () => createUserAs(t, PERSONAS.backoffice, [cliniqueSiret.code], FIVE.map((code) => roles[code]!));
      const roleAssignment = (email: string, roleCode: string, organizationCode = cliniqueSiret.code) =>
        api.create(PERSONAS.backoffice, { inviteeEmail: email, roleCode, invitationType: 'ROLE_ASSIGNMENT', organizationCode });

      it("refuses (409, spec §5 message) a ROLE_ASSIGNMENT or an administrator request that would give a sixth role, writing nothing", async () => {
        const { user } = await userWithFiveRoles();
        for (const created of [await roleAssignment(user.email, 'CABINET_COMPTABLE'), await api.create(PERSONAS.backoffice, adminRequest(user.email))]) {
          expect(created.status).toBe(201);
          const before = await traceCounts(t);
          const { status, body } = await api.approve(PERSONAS.backoffice, created.body.id);
          expect(status).toBe(409);
          expect(body.message).toBe('Vous avez atteint la limite de 5 rôles.');
          expect(await traceCounts(t)).toEqual(before);
          expect((await api.get(PERSONAS.backoffice, created.body.id)).body.status).toBe('PENDING');
        }
      });

      it('approves a role the user holds already, on another establishment: still 5 distinct roles', async () => {
        const { user } = await userWithFiveRoles();
        const sirets = await t.database.handle.db.selectFrom('organizations').select('code').where('parent_id', '=', clinique.id).orderBy('code').execute();
        const created = await roleAssignment(user.email, 'COMPTABLE', sirets[1]!.code);
        expect((await api.approve(PERSONAS.backoffice, created.body.id)).status).toBe(200);
      });
    });
  });
}
