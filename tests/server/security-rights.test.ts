// Issue 19, 'Nobody gets a right they were not given': the escalation paths a review found, each closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiDocument } from '../../server/api/openapi-document.ts';
import { OPERATION_REQUIREMENTS } from '../../server/features/session/operations.policy.ts';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { callApi, PERSONAS, startUsersApp, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

const REFUSED = 'Vous ne pouvez pas modifier cet utilisateur';

describe('the function-level decisions', () => {
  it('decide every operation of openapi.yaml, and no other', () => {
    const documented = Object.values(loadApiDocument().paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId?: string }>).flatMap((op) => (op && typeof op === 'object' && op.operationId ? [op.operationId] : [])),
    );
    expect(Object.keys(OPERATION_REQUIREMENTS).sort()).toEqual(documented.sort());
  });
});

for (const backend of backends) {
  describe(`rights nobody was given, on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
    }, 300_000);
    afterAll(() => t?.close());

    const db = () => t.database.handle.db;
    /** COMPTABLE at the clinic's first establishment, GESTIONNAIRE at the EHPAD's first one: the clinic's administrator may not change the account. */
    async function sharedUser() {
      const user = await fixtures(db()).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE' });
      await db().insertInto('role_assignments').values({ user_id: user.id, organization_id: orgs.ehpadSirets[0]!.id, role_id: roles.GESTIONNAIRE!, inherits_to_children: false }).execute();
      await db().updateTable('users').set({ last_name: 'Partagé' }).where('id', '=', user.id).execute();
      return user;
    }

    describe('no oracle of who has an account', () => {
      const identity = (email: string) => ({ firstName: 'Test', lastName: 'Partagé', email, metadata: null });
      const full = (email: string) => ({
        firstName: 'Test',
        lastName: 'Partagé',
        email,
        jobTitle: 'Testeur',
        phoneNumber: null,
        mobilePhone: null,
        street: '1 rue du Test',
        city: 'Paris',
        postalCode: '75001',
        isActive: true,
        roleAssignments: [{ organizationId: orgs.cliniqueSirets[0]!.id, roleIds: [roles.COMPTABLE!] }],
      });

      it("answers an administrator who may not change the account 403 whether the new address has an account or not (a back-office one included)", async () => {
        const user = await sharedUser();
        for (const email of [PERSONAS.backoffice, PERSONAS.adminEhpad, 'personne.inconnue@exemple.fr']) {
          const update = await callApi(t, { as: PERSONAS.adminClinique, method: 'PUT', route: '/api/v2/users/{id}', params: { id: user.id }, payload: identity(email) });
          expect([email, update.status, update.body.message]).toEqual([email, 403, REFUSED]);
          const fullUpdate = await callApi(t, { as: PERSONAS.adminClinique, method: 'PUT', route: '/api/v2/users/{id}/full-update', params: { id: user.id }, payload: full(email) });
          expect([email, fullUpdate.status]).toEqual([email, 403]);
        }
      });

      it('still answers 409 for an address in use to a caller who may change the account', async () => {
        const user = await sharedUser();
        const answer = await callApi(t, { as: PERSONAS.backoffice, method: 'PUT', route: '/api/v2/users/{id}', params: { id: user.id }, payload: identity(PERSONAS.adminEhpad) });
        expect(answer.status).toBe(409);
      });
    });

    describe('function-level refusal before validation', () => {

      it('answers 403, not 400, to a caller without the permission whatever the body or the query', async () => {
        const someone = await fixtures(db()).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE' });
        const calls: [string, 'POST' | 'PUT' | 'GET', Parameters<typeof callApi>[1]['route'], unknown, string?][] = [
          [PERSONAS.lecteur, 'POST', '/api/v2/users', {}],
          [PERSONAS.lecteur, 'POST', '/api/v2/users/complete', { email: 'pas-une-adresse' }],
          [PERSONAS.rhClinique, 'POST', '/api/v2/users', { nom: 1 }],
          [PERSONAS.lecteur, 'POST', '/api/v2/invitations', {}],
          [PERSONAS.adminClinique, 'POST', '/api/v2/invitations/{id}/reject', {}],
          [PERSONAS.rhClinique, 'GET', '/api/v2/users', undefined, 'pageSize=7'],
          [PERSONAS.rhClinique, 'GET', '/api/v2/organizations', undefined, 'pageSize=abc'],
          [PERSONAS.rhClinique, 'GET', '/api/v2/audit', undefined, 'page=0'],
        ];
        for (const [as, method, route, payload, query] of calls) {
          const answer = await callApi(t, { as, method, route, params: { id: route.includes('invitations') ? 1 : someone.id }, payload, query });
          expect([as, method, route, answer.status]).toEqual([as, method, route, 403]);
        }
        for (const [route, payload] of [
          ['/api/v2/users/{id}', { firstName: '' }],
          ['/api/v2/users/{id}/complete', {}],
          ['/api/v2/users/{id}/roles/bulk', { assignments: 'non' }],
        ] as const) {
          const answer = await callApi(t, { as: PERSONAS.lecteur, method: 'PUT', route, params: { id: someone.id }, payload });
          expect([route, answer.status]).toEqual([route, 403]);
        }
      });

      it('still answers 400 naming the field to a caller who holds the permission', async () => {
        const answer = await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users', payload: {} });
        expect(answer.status).toBe(400);
      });
    });

    describe('a back-office account is never an organization user', () => {
      /** A back-office account (USER_LIST), made in this test's database; with `organizationRole`, given an organization role directly. */
      async function backOfficeAccount(organizationRole = false) {
        const user = await fixtures(db()).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE' });
        await db().updateTable('users').set({ user_type: 'BACKOFFICE', last_name: 'Bureau' }).where('id', '=', user.id).execute();
        await db().insertInto('user_permissions').values({ user_id: user.id, permission_code: 'USER_LIST' }).execute();
        if (!organizationRole) await db().deleteFrom('role_assignments').where('user_id', '=', user.id).execute();
        return user;
      }
      const heldRoles = async (id: string) => Number((await db().selectFrom('role_assignments').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', id).executeTakeFirstOrThrow()).n);

      it('refuses every users route that would give a back-office account an organization role: 409 naming the field, nothing written', async () => {
        const account = await backOfficeAccount();
        const siret = orgs.cliniqueSirets[0]!;
        const personal = { firstName: 'Test', lastName: 'Bureau', email: account.email, jobTitle: 'Testeur', phoneNumber: null, mobilePhone: null, street: '1 rue du Test', city: 'Paris', postalCode: '75001' };
        const calls = [
          { method: 'POST', route: '/api/v2/users/{id}/roles', payload: { organizationId: siret.id, roleIds: [roles.COMPTABLE!] }, field: 'body.roleIds' },
          { method: 'PUT', route: '/api/v2/users/{id}/roles/bulk', payload: { assignments: [{ organizationCode: siret.code, roleIds: [roles.COMPTABLE!] }] }, field: 'body.assignments' },
          { method: 'PUT', route: '/api/v2/users/{id}/complete', payload: { ...personal, organizationCodes: [siret.code], roleIds: [roles.COMPTABLE!] }, field: 'body.roleIds' },
          { method: 'PUT', route: '/api/v2/users/{id}/full-update', payload: { ...personal, isActive: true, roleAssignments: [{ organizationId: siret.id, roleIds: [roles.COMPTABLE!] }] }, field: 'body.roleAssignments' },
        ] as const;
        for (const call of calls) {
          const answer = await callApi(t, { as: PERSONAS.backoffice, method: call.method, route: call.route, params: { id: account.id }, payload: call.payload });
          expect([call.route, answer.status]).toEqual([call.route, 409]);
          expect(answer.body.message).toMatch(/back-office.*rôle d'organisation/);
          expect(answer.body.fieldErrors).toEqual([{ field: call.field, message: answer.body.message }]);
        }
        expect(await heldRoles(account.id)).toBe(0);
      });

      it('hides a back-office account holding an organization role from that organization\'s administrator: 404 on every route, absent from the list', async () => {
        const account = await backOfficeAccount(true);
        const as = PERSONAS.adminClinique;
        const id = { id: account.id };
        expect((await callApi(t, { as, method: 'GET', route: '/api/v2/users/{id}', params: id })).status).toBe(404);
        expect((await callApi(t, { as, method: 'GET', route: '/api/v2/users/{id}/full-details', params: id })).status).toBe(404);
        expect((await callApi(t, { as, method: 'PUT', route: '/api/v2/users/{id}', params: id, payload: { firstName: 'Pris', lastName: 'Bureau', email: 'pris@exemple.fr', metadata: null } })).status).toBe(404);
        expect((await callApi(t, { as, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: id })).status).toBe(404);
        expect((await callApi(t, { as, method: 'DELETE', route: '/api/v2/users/{id}', params: id })).status).toBe(404);
        expect((await callApi(t, { as, method: 'PUT', route: '/api/v2/users/{id}/roles/bulk', params: id, payload: { assignments: [{ organizationCode: orgs.cliniqueSirets[0]!.code, roleIds: [roles.GESTIONNAIRE!] }] } })).status).toBe(404);
        const list = await callApi(t, { as, method: 'GET', route: '/api/v2/users', query: { search: account.email, includeInactive: true } });
        expect(list.status).toBe(200);
        expect(list.body.totalCount ?? list.body.total).toBe(0);
        const row = await db().selectFrom('users').select(['email', 'is_active', 'first_name']).where('id', '=', account.id).executeTakeFirstOrThrow();
        expect(row).toEqual({ email: account.email, is_active: true, first_name: 'Test' });
      });
    });

    describe('ADMIN_OPCO on no organization, ADMIN_ADHERENT on a SIREN only', () => {
      const BACK_OFFICE_ROLE = "Le rôle Admin OPCO est celui du back-office : il ne s'attribue pas sur une organisation.";
      const ON_SIREN_ONLY = /ne s'attribue que sur un SIREN/;
      const personal = { firstName: 'Test', lastName: 'Interne', jobTitle: 'Testeur', phoneNumber: null, mobilePhone: null, street: '1 rue du Test', city: 'Paris', postalCode: '75001' };

      it('refuses ADMIN_OPCO through every users route, to the back office too: 400 naming the role, nothing written', async () => {
        const user = await fixtures(db()).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE' });
        const siret = orgs.cliniqueSirets[0]!;
        const calls = [
          { method: 'POST', route: '/api/v2/users', payload: { nom: 'Interne', prenom: 'Test', email: `opco.${user.id.slice(0, 8)}@exemple.fr`, sirets: [siret.code], roles: ['ADMIN_OPCO'], phoneNumber: '', jobTitle: 'Testeur', mobilePhone: '', street: '1 rue du Test', postalCode: '75001', city: 'Paris', hasInternalRole: true }, field: 'body.roles.0' },
          { method: 'POST', route: '/api/v2/users/complete', payload: { ...personal, email: `opco2.${user.id.slice(0, 8)}@exemple.fr`, organizationCodes: [siret.code], roleIds: [roles.ADMIN_OPCO!] }, field: 'body.roleIds.0' },
          { method: 'POST', route: '/api/v2/users/{id}/roles', payload: { organizationId: orgs.clinique.id, roleIds: [roles.ADMIN_OPCO!] }, field: 'body.roleIds.0' },
          { method: 'PUT', route: '/api/v2/users/{id}/roles/bulk', payload: { assignments: [{ organizationCode: orgs.clinique.code, roleIds: [roles.ADMIN_OPCO!] }] }, field: 'body.assignments.0.roleIds.0' },
          { method: 'PUT', route: '/api/v2/users/{id}/complete', payload: { ...personal, email: user.email, organizationCodes: [siret.code], roleIds: [roles.COMPTABLE!, roles.ADMIN_OPCO!] }, field: 'body.roleIds.1' },
        ] as const;
        for (const call of calls) {
          const answer = await callApi(t, { as: PERSONAS.backoffice, method: call.method, route: call.route, params: { id: user.id }, payload: call.payload });
          expect([call.route, answer.status, answer.body.fieldErrors]).toEqual([call.route, 400, [{ field: call.field, message: BACK_OFFICE_ROLE }]]);
        }
        const held = await db().selectFrom('role_assignments').select('role_id').where('role_id', '=', roles.ADMIN_OPCO!).execute();
        expect(held).toEqual([]);
      });

      it('refuses ADMIN_ADHERENT on a SIRET through the routes that name the organization: 400, and gives it on the SIREN', async () => {
        const user = await fixtures(db()).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE' });
        const siret = orgs.cliniqueSirets[0]!;
        const calls = [
          { method: 'POST', route: '/api/v2/users/{id}/roles', payload: { organizationId: siret.id, roleIds: [roles.ADMIN_ADHERENT!] }, field: 'body.roleIds.0' },
          { method: 'PUT', route: '/api/v2/users/{id}/roles/bulk', payload: { assignments: [{ organizationCode: siret.code, roleIds: [roles.COMPTABLE!, roles.ADMIN_ADHERENT!] }] }, field: 'body.assignments.0.roleIds.1' },
          { method: 'PUT', route: '/api/v2/users/{id}/full-update', payload: { ...personal, lastName: 'Utilisateur', email: user.email, isActive: true, roleAssignments: [{ organizationId: siret.id, roleIds: [roles.ADMIN_ADHERENT!] }] }, field: 'body.roleAssignments.0.roleIds.0' },
        ] as const;
        for (const call of calls) {
          const answer = await callApi(t, { as: PERSONAS.backoffice, method: call.method, route: call.route, params: { id: user.id }, payload: call.payload });
          expect([call.route, answer.status, answer.body.fieldErrors?.[0]?.field]).toEqual([call.route, 400, call.field]);
          expect(answer.body.message).toMatch(ON_SIREN_ONLY);
        }
        const onSiren = await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/roles', params: { id: user.id }, payload: { organizationId: orgs.clinique.id, roleIds: [roles.ADMIN_ADHERENT!] } });
        expect(onSiren.status).toBe(200);
      });
    });

    describe('permissions evaluated per organization acted on', () => {
      /** Administrator of the clinic (ADMIN_ADHERENT on its SIREN, inherited) who also holds COMPTABLE (no permission) on one EHPAD establishment. */
      async function twoCompanyAdmin() {
        const person = await fixtures(db()).user({ organizationId: orgs.clinique.id, roleCode: 'ADMIN_ADHERENT', inherits: true });
        await db().insertInto('role_assignments').values({ user_id: person.id, organization_id: orgs.ehpadSirets[0]!.id, role_id: roles.COMPTABLE!, inherits_to_children: false }).execute();
        return person;
      }
      const ehpadUser = () => fixtures(db()).user({ organizationId: orgs.ehpadSirets[0]!.id, roleCode: 'GESTIONNAIRE' });
      const clinicUser = () => fixtures(db()).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'GESTIONNAIRE' });

      it('lets the two-company administrator neither list, read, create, change, deactivate nor invite in the company where their role gives no permission', async () => {
        const as = (await twoCompanyAdmin()).email;
        const target = await ehpadUser();
        const siret = orgs.ehpadSirets[0]!;
        const list = await callApi(t, { as, method: 'GET', route: '/api/v2/users', query: { search: target.email } });
        expect([list.status, list.body.total]).toEqual([200, 0]);
        expect((await callApi(t, { as, method: 'GET', route: '/api/v2/users', query: { organizationId: siret.id } })).status).toBe(404);
        expect((await callApi(t, { as, method: 'GET', route: '/api/v2/users/{id}', params: { id: target.id } })).status).toBe(404);
        expect((await callApi(t, { as, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: target.id } })).status).toBe(404);
        const created = await callApi(t, {
          as,
          method: 'POST',
          route: '/api/v2/users/complete',
          payload: { firstName: 'Test', lastName: 'Ailleurs', email: `ailleurs.${target.id.slice(0, 8)}@exemple.fr`, jobTitle: 'Testeur', phoneNumber: null, mobilePhone: null, street: '1 rue du Test', city: 'Paris', postalCode: '75001', organizationCodes: [siret.code], roleIds: [roles.COMPTABLE!] },
        });
        expect([created.status, created.body.fieldErrors?.[0]?.field]).toEqual([400, 'body.organizationCodes.0']);
        const invitation = await callApi(t, {
          as,
          method: 'POST',
          route: '/api/v2/invitations',
          query: { organizationId: siret.id },
          payload: { inviteeEmail: `invite.${target.id.slice(0, 8)}@exemple.fr`, roleCode: 'COMPTABLE', invitationType: 'ROLE_ASSIGNMENT' },
        });
        expect(invitation.status).toBe(404);
        const row = await db().selectFrom('users').select('is_active').where('id', '=', target.id).executeTakeFirstOrThrow();
        expect(row.is_active).toBe(true);
      });

      it("keeps the other company's assignment of a shared user out of the two-company administrator's hands, and their account too", async () => {
        const as = (await twoCompanyAdmin()).email;
        const shared = await clinicUser();
        await db().insertInto('role_assignments').values({ user_id: shared.id, organization_id: orgs.ehpadSirets[0]!.id, role_id: roles.ADHESION!, inherits_to_children: false }).execute();
        const replaced = await callApi(t, {
          as,
          method: 'PUT',
          route: '/api/v2/users/{id}/roles/bulk',
          params: { id: shared.id },
          payload: { assignments: [{ organizationCode: orgs.cliniqueSirets[0]!.code, roleIds: [roles.COMPTABLE!] }] },
        });
        expect(replaced.status).toBe(200);
        const held = await db().selectFrom('role_assignments').select(['organization_id', 'role_id']).where('user_id', '=', shared.id).orderBy('role_id').execute();
        expect(held).toEqual(expect.arrayContaining([{ organization_id: orgs.ehpadSirets[0]!.id, role_id: roles.ADHESION! }]));
        expect((await callApi(t, { as, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: shared.id } })).status).toBe(403);
      });

      it('still lets the two-company administrator manage the users of the company they administer', async () => {
        const as = (await twoCompanyAdmin()).email;
        const target = await clinicUser();
        expect((await callApi(t, { as, method: 'GET', route: '/api/v2/users/{id}', params: { id: target.id } })).status).toBe(200);
        expect((await callApi(t, { as, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: target.id } })).status).toBe(200);
      });
    });
  });
}
