import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from 'kysely';
import { backends } from './db/test-databases.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, completePayload, PERSONAS, rowCounts, startUsersApp, uniqueEmail, wizardPayload, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import { IdentityDirectoryError, LocalIdentityDirectory } from '../../server/identity/directory.ts';
import type { Database } from '../../server/db/schema.ts';

/** The local directory, made to fail on demand after the portal's rows are written. */
class FlakyDirectory extends LocalIdentityDirectory {
  failing = false;
  override async createAccount(trx: Transaction<Database>, input: { email: string; displayName: string }) {
    if (this.failing) throw new IdentityDirectoryError('directory down');
    return super.createAccount(trx, input);
  }
}

for (const backend of backends) {
  describe(`POST /api/v2/users and /users/complete on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    const directory = new FlakyDirectory();
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend, { directory }));
    });
    afterAll(() => t?.close());

    const wizard = (as: string, payload: unknown) => callApi(t, { as, method: 'POST', route: '/api/v2/users', payload });
    const complete = (as: string, payload: unknown) => callApi(t, { as, method: 'POST', route: '/api/v2/users/complete', payload });
    const siret = (i: number) => orgs.cliniqueSirets[i]!.code;

    it('creates a user from the wizard: each role on each SIRET, an identity account, an audit entry and an e-mail', async () => {
      const before = await rowCounts(t);
      const payload = wizardPayload([siret(0), siret(1)], ['COMPTABLE', 'GESTIONNAIRE'], { email: uniqueEmail('Wizard.Case') });
      const { status, body } = await wizard(PERSONAS.backoffice, payload);
      expect(status).toBe(201);
      expect(body.user).toMatchObject({ firstName: 'Élodie', lastName: 'Durand', email: payload.email, jobTitle: 'Assistante RH', phoneNumber: '0472000000', mobilePhone: null, isActive: true, userType: 'ORGANIZATION', version: 1 });
      expect(body.organizations.map((o: { code: string; role: { code: string } }) => `${o.code} ${o.role.code}`).sort()).toEqual(
        [`${siret(0)} COMPTABLE`, `${siret(0)} GESTIONNAIRE`, `${siret(1)} COMPTABLE`, `${siret(1)} GESTIONNAIRE`].sort(),
      );
      const after = await rowCounts(t);
      expect(after).toMatchObject({ users: before.users + 1, roleAssignments: before.roleAssignments + 4, audit: before.audit + 1, outbox: before.outbox + 1, identities: before.identities + 1 });

      const db = t.database.handle.db;
      const row = await db.selectFrom('users').select(['auth_id']).where('id', '=', body.user.id).executeTakeFirstOrThrow();
      const identity = await db.selectFrom('identity_accounts').selectAll().where('subject', '=', row.auth_id!).executeTakeFirstOrThrow();
      expect(identity).toMatchObject({ email: payload.email, display_name: 'Élodie Durand', enabled: true, password_hash: null });
      const audit = await db.selectFrom('audit_log').selectAll().where('entity_id', '=', body.user.id).execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ action: 'user.create', entity_type: 'user', actor_email: PERSONAS.backoffice });
      expect(audit[0]!.changes).toMatchObject({ email: { before: null, after: payload.email }, assignments: { before: null, after: expect.arrayContaining([`${siret(0)} COMPTABLE`]) } });
      const mail = await db.selectFrom('outbox').selectAll().where('recipient', '=', payload.email).executeTakeFirstOrThrow();
      expect(mail).toMatchObject({ kind: 'account.invitation', status: 'PENDING' });
      expect(mail.subject).toMatch(/Portail Habilitations/);
      expect(mail.body).toMatch(/compte a été créé/);
      expect(mail.body).toMatch(/\/oidc\/account\/setup\?token=/);

      // The identity's subject is the user's: a token of it reaches the new profile.
      const me = await callApi(t, { as: payload.email, method: 'GET', route: '/api/v2/users/me' });
      expect(me.body).toMatchObject({ id: body.user.id, isActive: true });
    });

    it('puts an INTERNAL role on the SIREN of the first SIRET, inherited, and external roles on the SIRETs', async () => {
      const { status, body } = await wizard(PERSONAS.backoffice, wizardPayload([siret(1), siret(2)], ['ADMIN_ADHERENT', 'COMPTABLE'], { hasInternalRole: true }));
      expect(status).toBe(201);
      expect(body.organizations.map((o: { code: string; role: { code: string } }) => `${o.code} ${o.role.code}`).sort()).toEqual(
        [`${orgs.clinique.code} ADMIN_ADHERENT`, `${siret(1)} COMPTABLE`, `${siret(2)} COMPTABLE`].sort(),
      );
      const assignment = await t.database.handle.db.selectFrom('role_assignments').select('inherits_to_children').where('user_id', '=', body.user.id).where('organization_id', '=', orgs.clinique.id).executeTakeFirstOrThrow();
      expect(assignment.inherits_to_children).toBe(true);
    });

    it.each([
      ['prenom', { prenom: 'J' }, 'Minimum 2 caractères requis'],
      ['nom', { nom: 'Dupont3' }, 'Seules les lettres, espaces, tirets et apostrophes sont autorisés'],
      ['email', { email: 'marie@exemple' }, 'Adresse email invalide'],
      ['phoneNumber', { phoneNumber: '01 23' }, 'Numéro de téléphone français invalide'],
      ['mobilePhone', { mobilePhone: '+33 0 12' }, 'Numéro de téléphone français invalide'],
      ['jobTitle', { jobTitle: 'RH <script>' }, 'Caractères non autorisés détectés'],
      ['street', { street: '   ' }, 'Ce champ est obligatoire'],
      ['postalCode', { postalCode: '750' }, 'Le code postal doit contenir 5 chiffres'],
      ['city', { city: 'L' }, 'Minimum 2 caractères requis'],
      ['sirets', { sirets: [] }, 'At least one organization (SIRET) must be selected to create a user'],
      ['roles', { roles: [] }, 'Veuillez sélectionner au moins un rôle.'],
      ['roles', { roles: ['ADHESION', 'COMPTABLE', 'GESTIONNAIRE', 'CE_CSE_SIEGE', 'CABINET_COMPTABLE', 'RESSOURCE_HUMAINE'] }, 'Vous avez atteint la limite de 5 rôles.'],
    ])('refuses a wizard %s breaking a §5 rule with its French message', async (field, override, message) => {
      const before = await rowCounts(t);
      const { status, body } = await wizard(PERSONAS.backoffice, wizardPayload([siret(0)], ['COMPTABLE'], override));
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: 'BadRequest', message, fieldErrors: [{ field: `body.${field}`, message }] });
      expect(await rowCounts(t)).toEqual(before);
    });

    it('counts distinct roles: the same role five times plus one other is two roles', async () => {
      const { status } = await wizard(PERSONAS.backoffice, wizardPayload([siret(0)], ['COMPTABLE', 'COMPTABLE', 'COMPTABLE', 'COMPTABLE', 'COMPTABLE', 'ADHESION']));
      expect(status).toBe(201);
    });

    it('refuses unknown SIRETs and role codes naming each field', async () => {
      const { status, body } = await wizard(PERSONAS.backoffice, wizardPayload([siret(0), '12345678900012'], ['COMPTABLE', 'NO_SUCH_ROLE']));
      expect(status).toBe(400);
      expect(body.fieldErrors).toEqual([
        { field: 'body.sirets.1', message: "Impossible de trouver l'organisation pour le code 12345678900012." },
        { field: 'body.roles.1', message: 'Rôle inconnu : NO_SUCH_ROLE.' },
      ]);
    });

    it('refuses an unknown body field (the contract)', async () => {
      const { status, body } = await wizard(PERSONAS.backoffice, { ...wizardPayload([siret(0)], ['COMPTABLE']), isAdmin: true });
      expect(status).toBe(400);
      expect(body.fieldErrors).toEqual([{ field: 'body.isAdmin', message: 'Champ inconnu refusé' }]);
    });

    it('answers 409 for an email in use, whatever its case, and writes nothing', async () => {
      const before = await rowCounts(t);
      const { status, body } = await wizard(PERSONAS.backoffice, wizardPayload([siret(0)], ['COMPTABLE'], { email: 'Admin.Clinique@Portail.TEST' }));
      expect(status).toBe(409);
      expect(body.message).toBe('Cette adresse email est déjà utilisée par un autre utilisateur.');
      expect(await rowCounts(t)).toEqual(before);
    });

    it('refuses creation without USER_CREATE: read-only back office, an establishment user, an inactive account', async () => {
      for (const as of [PERSONAS.lecteur, PERSONAS.rhClinique, PERSONAS.inactif]) {
        const { status } = await wizard(as, wizardPayload([siret(0)], ['COMPTABLE']));
        expect(status).toBe(403);
      }
    });

    it('lets an employer administrator create users on their SIRETs only, and never with an INTERNAL role', async () => {
      expect((await wizard(PERSONAS.adminClinique, wizardPayload([siret(0)], ['GESTIONNAIRE']))).status).toBe(201);
      const outside = await wizard(PERSONAS.adminClinique, wizardPayload([orgs.ehpadSirets[0]!.code], ['GESTIONNAIRE']));
      expect(outside.status).toBe(400);
      expect(outside.body.fieldErrors).toEqual([{ field: 'body.sirets.0', message: `Impossible de trouver l'organisation pour le code ${orgs.ehpadSirets[0]!.code}.` }]);
      const internal = await wizard(PERSONAS.adminClinique, wizardPayload([siret(0)], ['ADMIN_ADHERENT'], { hasInternalRole: true }));
      expect(internal.status).toBe(403);
      expect(internal.body.message).toBe('Vous ne pouvez pas attribuer un rôle interne.');
    });

    it('creates a user in one call from organization codes and role ids (createUserComplete)', async () => {
      const payload = completePayload([siret(0)], [roles.COMPTABLE!, roles.ADHESION!], { mobilePhone: null });
      const { status, body } = await complete(PERSONAS.backoffice, payload);
      expect(status).toBe(201);
      expect(body.user).toMatchObject({ email: payload.email, firstName: 'Marc', lastName: "L'Hôte", phoneNumber: '0612345678', mobilePhone: null, city: 'Lyon' });
      expect(body.organizations.map((o: { role: { code: string } }) => o.role.code).sort()).toEqual(['ADHESION', 'COMPTABLE']);
    });

    it('adds the SIREN of the first SIRET for an INTERNAL role, and needs a SIRET for each SIREN given', async () => {
      const added = await complete(PERSONAS.backoffice, completePayload([siret(2)], [roles.ADMIN_ADHERENT!]));
      expect(added.status).toBe(201);
      expect(added.body.organizations).toEqual([expect.objectContaining({ id: orgs.clinique.id, role: expect.objectContaining({ code: 'ADMIN_ADHERENT' }) })]);
      const lonely = await complete(PERSONAS.backoffice, completePayload([orgs.ehpad.code, siret(0)], [roles.ADMIN_ADHERENT!]));
      expect(lonely.status).toBe(400);
      expect(lonely.body.fieldErrors).toEqual([{ field: 'body.organizationCodes', message: 'Veuillez sélectionner au moins un SIRET pour chaque SIREN' }]);
      const none = await complete(PERSONAS.backoffice, completePayload([orgs.clinique.code], [roles.COMPTABLE!]));
      expect(none.status).toBe(400);
      expect(none.body.message).toBe('At least one organization (SIRET) must be selected to create a user');
    });

    it('leaves no trace when a role id is unknown after valid personal fields', async () => {
      const before = await rowCounts(t);
      const payload = completePayload([siret(0)], [roles.COMPTABLE!, 999]);
      const { status, body } = await complete(PERSONAS.backoffice, payload);
      expect(status).toBe(400);
      expect(body.fieldErrors).toEqual([{ field: 'body.roleIds.1', message: 'Rôle inconnu : 999.' }]);
      expect(await rowCounts(t)).toEqual(before);
      expect(await t.database.handle.db.selectFrom('users').select('id').where('email', '=', payload.email).executeTakeFirst()).toBeUndefined();
    });

    it('rolls everything back when the identity provider fails after the rows are written (503)', async () => {
      const before = await rowCounts(t);
      directory.failing = true;
      try {
        const { status, body } = await complete(PERSONAS.backoffice, completePayload([siret(0), siret(1)], [roles.COMPTABLE!]));
        expect(status).toBe(503);
        expect(body.message).toBe("Le service d'identité est momentanément indisponible. Réessayez dans quelques instants.");
      } finally {
        directory.failing = false;
      }
      expect(await rowCounts(t)).toEqual(before);
    });

    it('answers one 201 and one 409 to two simultaneous creations with the same email', async () => {
      const email = uniqueEmail('twice');
      const answers = await Promise.all([0, 1].map(() => complete(PERSONAS.backoffice, completePayload([siret(0)], [roles.COMPTABLE!], { email }))));
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      const rows = await t.database.handle.db.selectFrom('users').select('id').where('email', '=', email).execute();
      expect(rows).toHaveLength(1);
    });
  });
}
