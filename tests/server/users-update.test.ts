import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, createUserAs, PERSONAS, rowCounts, startUsersApp, userIdOf, type DemoOrganizations, type RoleIds } from './support/users-api.ts';

const STALE = "Cet utilisateur a été modifié par quelqu'un d'autre entre-temps. Rechargez la page.";

for (const backend of backends) {
  describe(`PUT /api/v2/users/{id}, /full-update and /complete on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
    });
    afterAll(() => t?.close());

    const siret = (i: number) => orgs.cliniqueSirets[i]!;
    const freshUser = (extra: Record<string, unknown> = {}) => createUserAs(t, PERSONAS.backoffice, [siret(0).code], [roles.COMPTABLE!], extra);
    const update = (as: string, id: string, payload: unknown) => callApi(t, { as, method: 'PUT', route: '/api/v2/users/{id}', params: { id }, payload });
    const fullUpdate = (as: string, id: string, payload: unknown, headers?: Record<string, string>) =>
      callApi(t, { as, method: 'PUT', route: '/api/v2/users/{id}/full-update', params: { id }, payload, ...(headers ? { headers } : {}) });
    const completeUpdate = (as: string, id: string, payload: unknown, headers?: Record<string, string>) =>
      callApi(t, { as, method: 'PUT', route: '/api/v2/users/{id}/complete', params: { id }, payload, ...(headers ? { headers } : {}) });
    const db = () => t.database.handle.db;
    const audits = (id: string) => db().selectFrom('audit_log').selectAll().where('entity_id', '=', id).orderBy('id').execute();
    const fullPayload = (overrides: Record<string, unknown> = {}) => ({
      firstName: 'Jeanne',
      lastName: 'Martin',
      email: `jeanne.${Math.random().toString(36).slice(2, 9)}@exemple.fr`,
      jobTitle: 'Gestionnaire paie',
      phoneNumber: '04 00 00 00 00',
      mobilePhone: null,
      street: '',
      city: 'Lyon',
      postalCode: '69003',
      isActive: true,
      roleAssignments: [{ organizationCode: siret(1).code, roleIds: [roles.GESTIONNAIRE!] }],
      ...overrides,
    });

    it('updates names, email and metadata, applying the details the metadata holds; bumps the version; audits the changes', async () => {
      const created = await freshUser();
      const metadata = JSON.stringify({ jobTitle: 'Responsable formation', city: 'Villeurbanne', street: '1 rue Neuve' });
      const { status, body } = await update(PERSONAS.backoffice, created.user.id, { firstName: 'Annie', lastName: 'Morel', email: created.user.email.toUpperCase(), metadata });
      expect(status).toBe(200);
      expect(body.user).toMatchObject({ firstName: 'Annie', lastName: 'Morel', email: created.user.email.toUpperCase(), jobTitle: 'Responsable formation', city: 'Villeurbanne', street: '1 rue Neuve', metadata, version: 2 });
      expect(body.organizations).toHaveLength(1);
      const entries = await audits(created.user.id);
      expect(entries.map((e) => e.action)).toEqual(['user.create', 'user.update']);
      expect(entries[1]!.changes).toMatchObject({ firstName: { before: 'Marc', after: 'Annie' }, city: { before: 'Lyon', after: 'Villeurbanne' } });
      expect(Object.keys(entries[1]!.changes as object)).not.toContain('postalCode');
    });

    it('refuses metadata that is not JSON, and names breaking §5 rules', async () => {
      const created = await freshUser();
      const notJson = await update(PERSONAS.backoffice, created.user.id, { firstName: 'Annie', lastName: 'Morel', email: created.user.email, metadata: '{oops' });
      expect(notJson.status).toBe(400);
      expect(notJson.body.fieldErrors).toEqual([{ field: 'body.metadata', message: 'Le champ metadata doit contenir du JSON valide.' }]);
      const badName = await update(PERSONAS.backoffice, created.user.id, { firstName: 'A', lastName: 'Morel', email: 'x@y', metadata: null });
      expect(badName.status).toBe(400);
      expect(badName.body.fieldErrors).toEqual([
        { field: 'body.firstName', message: 'Minimum 2 caractères requis' },
        { field: 'body.email', message: 'Adresse email invalide' },
      ]);
    });

    it("answers 409 for another user's email, whatever its case", async () => {
      const created = await freshUser();
      const { status, body } = await update(PERSONAS.backoffice, created.user.id, { firstName: 'Annie', lastName: 'Morel', email: 'RH.Clinique@portail.test', metadata: null });
      expect(status).toBe(409);
      expect(body.message).toBe('Cette adresse email est déjà utilisée par un autre utilisateur.');
    });

    it('refuses changes without USER_CREATE, to oneself, and to protected users', async () => {
      const created = await freshUser();
      const body = { firstName: 'Annie', lastName: 'Morel', email: created.user.email, metadata: null };
      for (const as of [PERSONAS.lecteur, PERSONAS.rhClinique, PERSONAS.inactif]) expect((await update(as, created.user.id, body)).status).toBe(403);
      const self = await update(PERSONAS.backoffice, await userIdOf(t, PERSONAS.backoffice), { ...body, email: PERSONAS.backoffice });
      expect(self.status).toBe(403);
      expect(self.body.message).toBe('Vous ne pouvez pas modifier votre propre profil');
      const selfAdmin = await update(PERSONAS.adminClinique, await userIdOf(t, PERSONAS.adminClinique), { ...body, email: PERSONAS.adminClinique });
      expect(selfAdmin.body.message).toBe('Vous ne pouvez pas modifier votre propre profil');
      const admin = await createUserAs(t, PERSONAS.backoffice, [siret(0).code], [roles.ADMIN_ADHERENT!]);
      const protectedTarget = await update(PERSONAS.adminClinique, admin.user.id, { ...body, email: admin.user.email });
      expect(protectedTarget.status).toBe(403);
      expect(protectedTarget.body.message).toBe('Vous ne pouvez pas modifier cet utilisateur');
      // The back office may.
      expect((await update(PERSONAS.backoffice, admin.user.id, { ...body, email: admin.user.email })).status).toBe(200);
    });

    it("lets an employer administrator edit their organizations' users, and answers 404 for others", async () => {
      const created = await freshUser();
      const body = { firstName: 'Annie', lastName: 'Morel', email: created.user.email, metadata: null };
      expect((await update(PERSONAS.adminClinique, created.user.id, body)).status).toBe(200);
      const outside = await update(PERSONAS.adminEhpad, created.user.id, body);
      expect(outside.status).toBe(404);
      expect((await update(PERSONAS.adminEhpad, '00000000-0000-4000-8000-000000000000', body)).body.message).toBe(outside.body.message);
    });

    it('replaces details, status and assignments in one full update, with one audit entry per kind of change', async () => {
      const created = await freshUser();
      const subject = (await db().selectFrom('users').select('auth_id').where('id', '=', created.user.id).executeTakeFirstOrThrow()).auth_id!;
      const payload = fullPayload({
        isActive: false,
        version: created.user.version,
        roleAssignments: [
          { organizationCode: siret(1).code, roleIds: [roles.GESTIONNAIRE!, roles.COMPTABLE!] },
          { organizationId: siret(2).id, roleIds: [roles.GESTIONNAIRE!] },
        ],
      });
      const { status, body } = await fullUpdate(PERSONAS.backoffice, created.user.id, payload);
      expect(status).toBe(200);
      // Issue 19: the new email waits for its owner's confirmation.
      expect(body.user).toMatchObject({ firstName: 'Jeanne', email: created.user.email, pendingEmail: payload.email, street: null, mobilePhone: null, phoneNumber: '04 00 00 00 00', isActive: false, version: created.user.version + 1 });
      expect(body.organizations.map((o: { code: string; role: { code: string } }) => `${o.code} ${o.role.code}`).sort()).toEqual(
        [`${siret(1).code} COMPTABLE`, `${siret(1).code} GESTIONNAIRE`, `${siret(2).code} GESTIONNAIRE`].sort(),
      );
      expect((await audits(created.user.id)).map((e) => e.action)).toEqual(['user.create', 'user.update', 'user.email.request', 'user.roles', 'user.deactivate']);
      const identity = await db().selectFrom('identity_accounts').select('enabled').where('subject', '=', subject).executeTakeFirstOrThrow();
      expect(identity.enabled).toBe(false);
    });

    it('answers 409 to a stale version, from the body or from If-Match, and changes nothing', async () => {
      const created = await freshUser();
      const first = await fullUpdate(PERSONAS.backoffice, created.user.id, fullPayload(), { 'if-match': `"${created.user.version}"` });
      expect(first.status).toBe(200);
      const before = await rowCounts(t);
      const viaHeader = await fullUpdate(PERSONAS.backoffice, created.user.id, fullPayload({ firstName: 'Other' }), { 'if-match': `W/"${created.user.version}"` });
      expect(viaHeader.status).toBe(409);
      expect(viaHeader.body.message).toBe(STALE);
      const viaBody = await fullUpdate(PERSONAS.backoffice, created.user.id, fullPayload({ firstName: 'Other', version: created.user.version }), { 'if-match': `"${first.body.user.version}"` });
      expect(viaBody.status).toBe(409);
      expect(await rowCounts(t)).toEqual(before);
      const row = await db().selectFrom('users').select(['version', 'first_name']).where('id', '=', created.user.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ version: first.body.user.version, first_name: 'Jeanne' });
    });

    it('lets exactly one of two simultaneous updates with the same version through', async () => {
      const created = await freshUser();
      const answers = await Promise.all(
        ['Alice', 'Berthe'].map((firstName) => fullUpdate(PERSONAS.backoffice, created.user.id, fullPayload({ firstName, version: created.user.version }))),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const row = await db().selectFrom('users').select(['version', 'first_name']).where('id', '=', created.user.id).executeTakeFirstOrThrow();
      expect(row.version).toBe(created.user.version + 1);
      expect(row.first_name).toBe(answers.find((a) => a.status === 200)!.body.user.firstName);
    });

    it('counts distinct roles over all entries: 1 to 5', async () => {
      const created = await freshUser();
      const six = ['ADHESION', 'COMPTABLE', 'GESTIONNAIRE', 'CE_CSE_SIEGE', 'CABINET_COMPTABLE', 'RESSOURCE_HUMAINE'].map((c) => roles[c]!);
      const tooMany = await fullUpdate(PERSONAS.backoffice, created.user.id, fullPayload({ roleAssignments: [{ organizationCode: siret(0).code, roleIds: six.slice(0, 3) }, { organizationCode: siret(1).code, roleIds: six.slice(3) }] }));
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.fieldErrors).toEqual([{ field: 'body.roleAssignments', message: 'Vous avez atteint la limite de 5 rôles.' }]);
      const none = await fullUpdate(PERSONAS.backoffice, created.user.id, fullPayload({ roleAssignments: [] }));
      expect(none.body.fieldErrors).toEqual([{ field: 'body.roleAssignments', message: 'Veuillez sélectionner au moins un rôle.' }]);
    });

    it('leaves no trace when a role id is unknown after valid personal fields', async () => {
      const created = await freshUser();
      const before = { counts: await rowCounts(t), row: await db().selectFrom('users').selectAll().where('id', '=', created.user.id).executeTakeFirstOrThrow() };
      const { status, body } = await fullUpdate(PERSONAS.backoffice, created.user.id, fullPayload({ isActive: false, roleAssignments: [{ organizationCode: siret(1).code, roleIds: [roles.COMPTABLE!, 999] }] }));
      expect(status).toBe(400);
      expect(body.fieldErrors).toEqual([{ field: 'body.roleAssignments.0.roleIds.1', message: 'Rôle inconnu : 999.' }]);
      expect(await rowCounts(t)).toEqual(before.counts);
      expect(await db().selectFrom('users').selectAll().where('id', '=', created.user.id).executeTakeFirstOrThrow()).toEqual(before.row);
    });

    it('keeps an organization user within their reach: no INTERNAL role, no organization of theirs, the others kept', async () => {
      const created = await freshUser();
      const internal = await fullUpdate(PERSONAS.adminClinique, created.user.id, fullPayload({ email: created.user.email, roleAssignments: [{ organizationId: orgs.clinique.id, roleIds: [roles.ADMIN_ADHERENT!] }] }));
      expect(internal.status).toBe(403);
      const outside = await fullUpdate(PERSONAS.adminClinique, created.user.id, fullPayload({ email: created.user.email, roleAssignments: [{ organizationId: orgs.ehpadSirets[0]!.id, roleIds: [roles.COMPTABLE!] }] }));
      expect(outside.status).toBe(400);
      expect(outside.body.fieldErrors).toEqual([{ field: 'body.roleAssignments.0.organizationId', message: 'Organisation introuvable.' }]);
      // The user also works for the EHPAD: the clinic's administrator replaces the clinic's part only, and
      // leaves what is the person's across companies (names, details) as it is.
      await db().insertInto('role_assignments').values({ user_id: created.user.id, organization_id: orgs.ehpadSirets[0]!.id, role_id: roles.CABINET_COMPTABLE! }).execute();
      const sameDetails = { firstName: 'Marc', lastName: "L'Hôte", email: created.user.email, jobTitle: 'Comptable', phoneNumber: '0612345678', street: '3 place Bellecour', postalCode: '69002', city: 'Lyon' };
      expect((await fullUpdate(PERSONAS.adminClinique, created.user.id, fullPayload({ email: created.user.email }))).status).toBe(403);
      const ok = await fullUpdate(PERSONAS.adminClinique, created.user.id, fullPayload(sameDetails));
      expect(ok.status).toBe(200);
      expect(ok.body.organizations.map((o: { code: string }) => o.code)).toEqual([siret(1).code]);
      const all = await db().selectFrom('role_assignments').select('organization_id').where('user_id', '=', created.user.id).execute();
      expect(all.map((a) => a.organization_id).sort()).toEqual([siret(1).id, orgs.ehpadSirets[0]!.id].sort());
    });

    it('replaces organizations and roles from codes and role ids (updateUserComplete), with a version check', async () => {
      const created = await freshUser();
      const payload = {
        firstName: 'Paul',
        lastName: 'Roux',
        email: created.user.email,
        jobTitle: null,
        phoneNumber: '',
        mobilePhone: '06 11 22 33 44',
        street: '5 quai Perrache',
        postalCode: '69002',
        city: '',
        organizationCodes: [orgs.clinique.code, siret(1).code, siret(2).code],
        roleIds: [roles.ADMIN_ADHERENT!, roles.GESTIONNAIRE!],
        version: created.user.version,
      };
      const { status, body } = await completeUpdate(PERSONAS.backoffice, created.user.id, payload);
      expect(status).toBe(200);
      expect(body.user).toMatchObject({ firstName: 'Paul', jobTitle: null, phoneNumber: null, mobilePhone: '06 11 22 33 44', city: null, version: created.user.version + 1 });
      expect(body.organizations.map((o: { code: string; role: { code: string } }) => `${o.code} ${o.role.code}`).sort()).toEqual(
        [`${orgs.clinique.code} ADMIN_ADHERENT`, `${siret(1).code} GESTIONNAIRE`, `${siret(2).code} GESTIONNAIRE`].sort(),
      );
      const stale = await completeUpdate(PERSONAS.backoffice, created.user.id, payload);
      expect(stale.status).toBe(409);
      expect(stale.body.message).toBe(STALE);
      const lonelySiren = await completeUpdate(PERSONAS.backoffice, created.user.id, { ...payload, version: undefined, organizationCodes: [orgs.ehpad.code, siret(0).code] });
      expect(lonelySiren.status).toBe(400);
      expect(lonelySiren.body.message).toBe('Veuillez sélectionner au moins un SIRET pour chaque SIREN');
    });

    it('refuses an unknown organization code in updateUserComplete naming the field', async () => {
      const created = await freshUser();
      const { status, body } = await completeUpdate(PERSONAS.backoffice, created.user.id, {
        firstName: 'Paul', lastName: 'Roux', email: created.user.email, jobTitle: null, phoneNumber: null, mobilePhone: null, street: null, postalCode: null, city: null,
        organizationCodes: [siret(0).code, '99999999900019'], roleIds: [roles.COMPTABLE!],
      });
      expect(status).toBe(400);
      expect(body.fieldErrors).toEqual([{ field: 'body.organizationCodes.1', message: "Impossible de trouver l'organisation pour le code 99999999900019." }]);
    });
  });
}
