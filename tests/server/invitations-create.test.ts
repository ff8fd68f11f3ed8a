import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { firstSiretOf, freshEmail, invitationsApi, newPersonMetadata, organizationByName } from './support/invitations.ts';

for (const backend of backends) {
  describe(`creating invitations on ${backend.name}`, () => {
    let t: TestApp;
    let api: ReturnType<typeof invitationsApi>;
    let clinique: { id: string; code: string; name: string };
    let ehpad: { id: string; code: string };
    let cliniqueSiret: { id: string; code: string };

    beforeAll(async () => {
      t = await startTestApp(backend);
      api = invitationsApi(t);
      clinique = await organizationByName(t, 'Clinique des Tilleuls');
      ehpad = await organizationByName(t, 'EHPAD Les Glycines');
      cliniqueSiret = await firstSiretOf(t, clinique.id);
    });
    afterAll(async () => {
      await t?.close();
    });

    const adminRequest = (overrides: Record<string, unknown> = {}) => ({
      inviteeEmail: freshEmail(),
      roleCode: 'ADMIN_ADHERENT',
      invitationType: 'NEW_ADMIN',
      organizationCode: clinique.code,
      metadata: newPersonMetadata(),
      ...overrides,
    });

    it('creates a pending administrator request sent by the signed-in user, and audits it', async () => {
      const payload = adminRequest({ metadata: { ...newPersonMetadata(), senderEmail: 'quelqu.un@ailleurs.fr' } });
      const { status, body } = await api.create('backoffice@portail.test', payload);
      expect(status).toBe(201);
      expect(body).toMatchObject({
        inviteeEmail: payload.inviteeEmail,
        organizationCode: clinique.code,
        organizationName: 'Clinique des Tilleuls',
        organizationId: clinique.id,
        roleCode: 'ADMIN_ADHERENT',
        status: 'PENDING',
        invitationType: 'NEW_ADMIN',
        senderEmail: 'backoffice@portail.test',
        validatorEmail: null,
        processedAt: null,
        rejectionReason: null,
      });
      expect((await api.get('backoffice@portail.test', body.id)).body).toEqual(body);
      const audit = await t.database.handle.db.selectFrom('audit_log').selectAll().where('entity_type', '=', 'invitation').where('entity_id', '=', String(body.id)).execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ action: 'invitation.create', actor_email: 'backoffice@portail.test', organization_id: clinique.id });
      const stored = await t.database.handle.db.selectFrom('invitations').select(['metadata', 'sender_user_id']).where('id', '=', body.id).executeTakeFirstOrThrow();
      expect(stored.sender_user_id).not.toBeNull();
      expect(stored.metadata).toMatchObject({ userProfile: { firstName: 'Camille' } });
    });

    it('takes the organization from the query organizationId', async () => {
      const { status, body } = await api.create('backoffice@portail.test', adminRequest({ organizationCode: undefined }), `organizationId=${clinique.id}`);
      expect(status).toBe(201);
      expect(body.organizationCode).toBe(clinique.code);
    });

    it('refuses an organizationId and an organizationCode naming different organizations', async () => {
      const { status, body } = await api.create('backoffice@portail.test', adminRequest({ organizationCode: ehpad.code }), `organizationId=${clinique.id}`);
      expect(status).toBe(400);
      expect(body.fieldErrors[0].field).toBe('body.organizationCode');
    });

    it('creates a role assignment of an external role on a SIRET', async () => {
      const { status, body } = await api.create('backoffice@portail.test', {
        inviteeEmail: 'rh.clinique@portail.test',
        roleCode: 'COMPTABLE',
        invitationType: 'ROLE_ASSIGNMENT',
        organizationCode: cliniqueSiret.code,
      });
      expect(status).toBe(201);
      expect(body).toMatchObject({ invitationType: 'ROLE_ASSIGNMENT', roleCode: 'COMPTABLE', organizationCode: cliniqueSiret.code });
    });

    it("lets admin.clinique request an administrator for its SIREN, and an external role on one of its SIRETs", async () => {
      const admin = await api.create('admin.clinique@portail.test', adminRequest());
      expect(admin.status).toBe(201);
      expect(admin.body.senderEmail).toBe('admin.clinique@portail.test');
      const external = await api.create('admin.clinique@portail.test', { inviteeEmail: freshEmail(), roleCode: 'GESTIONNAIRE', invitationType: 'ROLE_ASSIGNMENT', organizationCode: cliniqueSiret.code });
      expect(external.status).toBe(201);
    });

    it('answers 404 to admin.clinique for an organization outside its scope, as for a missing one', async () => {
      const outside = await api.create('admin.clinique@portail.test', adminRequest({ organizationCode: ehpad.code }));
      expect(outside.status).toBe(404);
      const byId = await api.create('admin.clinique@portail.test', adminRequest({ organizationCode: undefined }), `organizationId=${ehpad.id}`);
      expect(byId.status).toBe(404);
      expect(byId.body.message).toBe('Organisation introuvable.');
    });

    it('refuses admin.clinique an internal role other than ADMIN_ADHERENT, and everybody ADMIN_OPCO (403)', async () => {
      const opco = adminRequest({ roleCode: 'ADMIN_OPCO' });
      expect((await api.create('admin.clinique@portail.test', opco)).status).toBe(403);
      expect((await api.create('backoffice@portail.test', opco)).status).toBe(403);
    });

    it('refuses creation without USER_CREATE (lecteur, rh.clinique) and to an inactive account (403)', async () => {
      for (const email of ['lecteur@portail.test', 'rh.clinique@portail.test', 'inactif@portail.test']) {
        expect((await api.create(email, adminRequest())).status).toBe(403);
      }
      expect((await api.create(null, adminRequest())).status).toBe(401);
    });

    it('answers 409 to a second pending request for the same email (any case), organization and role', async () => {
      const payload = adminRequest();
      expect((await api.create('backoffice@portail.test', payload)).status).toBe(201);
      const again = await api.create('admin.clinique@portail.test', { ...payload, inviteeEmail: payload.inviteeEmail.toUpperCase() });
      expect(again.status).toBe(409);
      expect(again.body.message).toContain('déjà en attente');
      expect(again.body.message).toContain('already exists');
      // Another role, or another organization, is another request.
      const otherRole = await api.create('backoffice@portail.test', { inviteeEmail: payload.inviteeEmail, roleCode: 'COMPTABLE', invitationType: 'ROLE_ASSIGNMENT', organizationCode: cliniqueSiret.code });
      expect(otherRole.status).toBe(201);
    });

    it('lets exactly one of ten simultaneous identical requests through', async () => {
      const payload = adminRequest();
      const answers = await Promise.all(Array.from({ length: 10 }, () => api.create('backoffice@portail.test', payload)));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
      const stored = await t.database.handle.db.selectFrom('invitations').select('id').where('invitee_email', '=', payload.inviteeEmail).execute();
      expect(stored).toHaveLength(1);
      const audits = await t.database.handle.db.selectFrom('audit_log').select('id').where('entity_id', '=', String(stored[0]!.id)).execute();
      expect(audits).toHaveLength(1);
    });

    it('accepts a new request once the previous one was decided', async () => {
      const payload = adminRequest();
      const first = await api.create('backoffice@portail.test', payload);
      expect((await api.reject('backoffice@portail.test', first.body.id, 'Demande en double, à refaire.')).status).toBe(200);
      expect((await api.create('backoffice@portail.test', payload)).status).toBe(201);
    });

    it('needs an organization: 400 without one, 404 with the spec message for an unknown code', async () => {
      const none = await api.create('backoffice@portail.test', adminRequest({ organizationCode: undefined }));
      expect(none.status).toBe(400);
      expect(none.body.fieldErrors[0].field).toBe('body.organizationCode');
      const unknown = await api.create('backoffice@portail.test', adminRequest({ organizationCode: '000000000' }));
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe("Impossible de trouver l'organisation pour le code 000000000.");
    });

    it('refuses an unknown role code (400 on body.roleCode)', async () => {
      const { status, body } = await api.create('backoffice@portail.test', adminRequest({ roleCode: 'NO_SUCH_ROLE' }));
      expect(status).toBe(400);
      expect(body.fieldErrors).toEqual([{ field: 'body.roleCode', message: 'Rôle inconnu : NO_SUCH_ROLE.' }]);
    });

    it('accepts ORG_ADMIN as the code of ADMIN_ADHERENT', async () => {
      const { status, body } = await api.create('backoffice@portail.test', adminRequest({ roleCode: 'ORG_ADMIN' }));
      expect(status).toBe(201);
      expect(body.roleCode).toBe('ADMIN_ADHERENT');
    });

    it('keeps the types of spec §4: NEW_ADMIN an internal role on a SIREN, external roles on a SIRET', async () => {
      const externalAdmin = await api.create('backoffice@portail.test', adminRequest({ roleCode: 'COMPTABLE', organizationCode: cliniqueSiret.code }));
      expect(externalAdmin.status).toBe(400);
      expect(externalAdmin.body.fieldErrors[0].field).toBe('body.invitationType');
      const adminOnSiret = await api.create('backoffice@portail.test', adminRequest({ organizationCode: cliniqueSiret.code }));
      expect(adminOnSiret.status).toBe(400);
      const externalOnSiren = await api.create('backoffice@portail.test', { inviteeEmail: freshEmail(), roleCode: 'COMPTABLE', invitationType: 'ROLE_ASSIGNMENT', organizationCode: clinique.code });
      expect(externalOnSiren.status).toBe(400);
      expect(externalOnSiren.body.message).toBe('Veuillez sélectionner au moins un SIRET pour les rôles externes.');
    });

    it("needs the new person's names, checked by the rules of spec §5", async () => {
      const missing = await api.create('backoffice@portail.test', adminRequest({ metadata: { isNewUser: true } }));
      expect(missing.status).toBe(400);
      expect(missing.body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['body.metadata.userProfile.firstName', 'body.metadata.userProfile.lastName']);
      const invalid = await api.create('backoffice@portail.test', adminRequest({ metadata: newPersonMetadata({ firstName: 'J3an', phoneNumber: '12345' }) }));
      expect(invalid.status).toBe(400);
      expect(invalid.body.fieldErrors).toEqual([
        { field: 'body.metadata.userProfile.firstName', message: 'Seules les lettres, espaces, tirets et apostrophes sont autorisés' },
        { field: 'body.metadata.userProfile.phoneNumber', message: 'Numéro de téléphone français invalide' },
      ]);
    });

    it('does not need a profile for an email that already has an account', async () => {
      const { status } = await api.create('backoffice@portail.test', adminRequest({ inviteeEmail: 'rh.clinique@portail.test', metadata: undefined }));
      expect(status).toBe(201);
    });

    it('refuses a request for a back-office account (409)', async () => {
      const { status, body } = await api.create('backoffice@portail.test', adminRequest({ inviteeEmail: 'Lecteur@portail.test' }));
      expect(status).toBe(409);
      expect(body.message).toContain('back-office');
    });

    it("refuses unknown fields, and a malformed email with the users' message of spec §5 (400)", async () => {
      expect((await api.create('backoffice@portail.test', { ...adminRequest(), extra: 1 })).status).toBe(400);
      for (const inviteeEmail of ['pas-une-adresse', 'a@b.c', 'marie dupont@exemple.fr']) {
        const bad = await api.create('backoffice@portail.test', adminRequest({ inviteeEmail }));
        expect(bad.status).toBe(400);
        expect(bad.body.fieldErrors).toEqual([{ field: 'body.inviteeEmail', message: 'Adresse email invalide' }]);
        expect(bad.body.message).toBe('Adresse email invalide');
      }
      const long = await api.create('backoffice@portail.test', adminRequest({ inviteeEmail: `${'a'.repeat(250)}@exemple.fr` }));
      expect(long.body.fieldErrors).toEqual([{ field: 'body.inviteeEmail', message: 'Maximum 254 caractères' }]);
    });

    it('keeps the invitee email trimmed', async () => {
      const email = freshEmail();
      const { status, body } = await api.create('backoffice@portail.test', adminRequest({ inviteeEmail: `  ${email} ` }));
      expect(status).toBe(201);
      expect(body.inviteeEmail).toBe(email);
    });
  });
}
