// Attempts across companies that the authorization matrix's shape does not hold (one call per persona): an
// administrator reaching another company's users through list filters and search, through organization ids and
// codes of the other company in role bodies, through a request naming two organizations, through a back-office
// account given an organization role; and a person holding roles in two companies acting on the other one.
// Each must be refused and write nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, PERSONAS, rowCounts, startUsersApp, uniqueEmail, userIdOf, type DemoOrganizations, type RoleIds } from './support/users-api.ts';

for (const backend of backends) {
  describe(`cross-company attempts on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    /** ADMIN_ADHERENT of the EHPAD (inherited) who also holds COMPTABLE on one of the clinic's establishments. */
    let twoCompanies: { id: string; email: string };
    /** A back-office account (USER_LIST only) given ADMIN_ADHERENT on the clinic's SIREN in the database. */
    let backOfficeWithRole: { id: string; email: string };
    /** A user of the clinic alone. */
    let clinicUser: { id: string; email: string };

    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
      const db = t.database.handle.db;
      const f = fixtures(db);
      twoCompanies = await f.user({ organizationId: orgs.ehpad.id, roleCode: 'ADMIN_ADHERENT', inherits: true, email: uniqueEmail('deux.societes') });
      await db.insertInto('role_assignments').values({ user_id: twoCompanies.id, organization_id: orgs.cliniqueSirets[0]!.id, role_id: roles.COMPTABLE!, inherits_to_children: false }).execute();
      backOfficeWithRole = await f.user({ organizationId: orgs.clinique.id, roleCode: 'ADMIN_ADHERENT', inherits: true, email: uniqueEmail('bureau.role') });
      await db.updateTable('users').set({ user_type: 'BACKOFFICE' }).where('id', '=', backOfficeWithRole.id).execute();
      await db.insertInto('user_permissions').values({ user_id: backOfficeWithRole.id, permission_code: 'USER_LIST' }).execute();
      clinicUser = await f.user({ organizationId: orgs.cliniqueSirets[1]!.id, roleCode: 'COMPTABLE' });
    }, 120_000);
    afterAll(() => t?.close());

    const list = (as: string, query: Record<string, string | boolean>) => callApi(t, { as, method: 'GET', route: '/api/v2/users', query: { includeInactive: true, ...query } });
    const listedIds = (answer: { body: { items: { id: string }[] } }) => answer.body.items.map((u) => u.id);

    it("does not list another company's administrator to the clinic's administrator by a role filter or a search, nor by the other company as a filter (404)", async () => {
      // The person shared with the EHPAD holds ADMIN_ADHERENT there only: the clinic's filter on that role must not find them.
      const byRole = await list(PERSONAS.adminClinique, { roleCode: 'ADMIN_ADHERENT', search: twoCompanies.email });
      expect(byRole.status).toBe(200);
      expect(listedIds(byRole)).not.toContain(twoCompanies.id);
      expect(byRole.body.total).toBe(0);
      // Seen as the clinic's COMPTABLE only, with the clinic's assignment alone.
      const bySearch = await list(PERSONAS.adminClinique, { search: twoCompanies.email });
      expect(listedIds(bySearch)).toEqual([twoCompanies.id]);
      expect(bySearch.body.items[0].organizations.map((o: { code: string }) => o.code)).toEqual([orgs.cliniqueSirets[0]!.code]);
      expect(bySearch.body.items[0].allowedActions).toEqual([]);
      // Another company's administrator alone: never found by their address.
      expect((await list(PERSONAS.adminClinique, { search: PERSONAS.adminEhpad })).body.total).toBe(0);
      // The other company, or one of its establishments, as a filter: as an unknown organization.
      expect((await list(PERSONAS.adminClinique, { organizationId: orgs.ehpad.id })).status).toBe(404);
      expect((await list(PERSONAS.adminClinique, { organizationId: orgs.ehpadSirets[0]!.id })).status).toBe(404);
    });

    it('lets the person of two companies list only the company where they hold USER_LIST, never the other by filter or search', async () => {
      expect((await list(twoCompanies.email, { organizationId: orgs.clinique.id })).status).toBe(404);
      expect((await list(twoCompanies.email, { organizationId: orgs.cliniqueSirets[0]!.id })).status).toBe(404);
      const search = await list(twoCompanies.email, { search: clinicUser.email });
      expect(search.body.total).toBe(0);
      expect((await list(twoCompanies.email, { search: PERSONAS.adminClinique })).body.total).toBe(0);
      expect((await callApi(t, { as: twoCompanies.email, method: 'GET', route: '/api/v2/users/{id}/full-details', params: { id: clinicUser.id } })).status).toBe(404);
    });

    it("refuses the clinic's administrator roles on the EHPAD's organizations, by id or by code, in every roles body (400), and writes nothing", async () => {
      const before = await rowCounts(t);
      const as = PERSONAS.adminClinique;
      const id = clinicUser.id;
      const attempts = [
        callApi(t, { as, method: 'POST', route: '/api/v2/users/{id}/roles', params: { id }, payload: { organizationId: orgs.ehpadSirets[0]!.id, roleIds: [roles.COMPTABLE!] } }),
        callApi(t, { as, method: 'POST', route: '/api/v2/users/{id}/roles', params: { id }, payload: { organizationId: orgs.ehpad.id, roleIds: [roles.COMPTABLE!], inheritsToChildren: true } }),
        callApi(t, {
          as,
          method: 'PUT',
          route: '/api/v2/users/{id}/roles/bulk',
          params: { id },
          payload: { assignments: [{ organizationCode: orgs.cliniqueSirets[1]!.code, roleIds: [roles.COMPTABLE!] }, { organizationCode: orgs.ehpad.code, roleIds: [roles.COMPTABLE!], inheritsToChildren: true }] },
        }),
        callApi(t, {
          as,
          method: 'PUT',
          route: '/api/v2/users/{id}/roles/bulk',
          params: { id },
          payload: { assignments: [{ organizationId: orgs.cliniqueSirets[1]!.id, roleIds: [roles.COMPTABLE!] }, { organizationId: orgs.ehpadSirets[1]!.id, roleIds: [roles.COMPTABLE!] }] },
        }),
      ];
      const answers = await Promise.all(attempts);
      expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400]);
      expect(await rowCounts(t)).toEqual(before);
    });

    it("refuses the clinic's administrator a request on the EHPAD, even with the clinic's id beside the EHPAD's code, and writes nothing", async () => {
      const before = await rowCounts(t);
      const request = (organizationCode: string | undefined) => ({
        inviteeEmail: uniqueEmail('demande'),
        roleCode: 'ADMIN_ADHERENT',
        invitationType: 'NEW_ADMIN',
        ...(organizationCode ? { organizationCode } : {}),
        metadata: { userProfile: { firstName: 'Nouvel', lastName: 'Administrateur' }, isNewUser: true },
      });
      const mixed = await callApi(t, { as: PERSONAS.adminClinique, method: 'POST', route: '/api/v2/invitations', query: { organizationId: orgs.clinique.id }, payload: request(orgs.ehpad.code) });
      expect(mixed.status).toBe(400);
      const siret = await callApi(t, { as: PERSONAS.adminClinique, method: 'POST', route: '/api/v2/invitations', payload: request(orgs.ehpadSirets[0]!.code) });
      expect(siret.status).toBe(404);
      // The person of two companies holds only COMPTABLE (no USER_CREATE) at the clinic.
      const shared = await callApi(t, { as: twoCompanies.email, method: 'POST', route: '/api/v2/invitations', query: { organizationId: orgs.clinique.id }, payload: request(undefined) });
      expect(shared.status).toBe(404);
      expect(await rowCounts(t)).toEqual(before);
    });

    it("keeps a back-office account given an organization role out of the clinic's administrator's reach (404), and its role gives it nothing", async () => {
      const as = PERSONAS.adminClinique;
      const id = backOfficeWithRole.id;
      expect((await callApi(t, { as, method: 'GET', route: '/api/v2/users/{id}', params: { id } })).status).toBe(404);
      expect((await list(as, { search: backOfficeWithRole.email })).body.total).toBe(0);
      expect((await callApi(t, { as, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id } })).status).toBe(404);
      expect((await callApi(t, { as, method: 'GET', route: '/api/v2/users/{id}', params: { id: await userIdOf(t, PERSONAS.lecteur) } })).status).toBe(404);
      // Its ADMIN_ADHERENT gives it no USER_CREATE: its rights are its own.
      const change = await callApi(t, { as: backOfficeWithRole.email, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: clinicUser.id } });
      expect(change.status).toBe(403);
      const invite = await callApi(t, {
        as: backOfficeWithRole.email,
        method: 'POST',
        route: '/api/v2/invitations',
        query: { organizationId: orgs.clinique.id },
        payload: { inviteeEmail: uniqueEmail('demande'), roleCode: 'COMPTABLE', invitationType: 'ROLE_ASSIGNMENT' },
      });
      expect(invite.status).toBe(403);
    });

    it("refuses the clinic's administrator every change of the person who administers the EHPAD (403), even the roles held at the clinic, and the actions say so", async () => {
      const before = await rowCounts(t);
      const as = PERSONAS.adminClinique;
      const id = twoCompanies.id;
      const read = await callApi(t, { as, method: 'GET', route: '/api/v2/users/{id}', params: { id } });
      expect(read.status).toBe(200);
      expect(read.body.allowedActions).toEqual([]);
      const answers = await Promise.all([
        callApi(t, { as, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id } }),
        callApi(t, { as, method: 'DELETE', route: '/api/v2/users/{id}', params: { id } }),
        callApi(t, { as, method: 'PUT', route: '/api/v2/users/{id}/roles/bulk', params: { id }, payload: { assignments: [{ organizationCode: orgs.cliniqueSirets[0]!.code, roleIds: [roles.ADHESION!] }] } }),
        callApi(t, { as, method: 'PUT', route: '/api/v2/users/{id}', params: { id }, payload: { firstName: 'Test', lastName: 'Renommé', email: uniqueEmail('prise'), metadata: null } }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403]);
      expect(await rowCounts(t)).toEqual(before);
    });

    it("answers an address change to another person's address with 409 only to whoever may make it, and leaves nothing pending", async () => {
      const payload = { firstName: 'Test', lastName: 'Utilisateur', email: PERSONAS.adminEhpad, metadata: null };
      const taken = await callApi(t, { as: PERSONAS.adminClinique, method: 'PUT', route: '/api/v2/users/{id}', params: { id: clinicUser.id }, payload });
      expect(taken.status).toBe(409);
      // Those who may not change the user learn nothing of the address.
      expect((await callApi(t, { as: PERSONAS.adminEhpad, method: 'PUT', route: '/api/v2/users/{id}', params: { id: clinicUser.id }, payload })).status).toBe(404);
      expect((await callApi(t, { as: PERSONAS.lecteur, method: 'PUT', route: '/api/v2/users/{id}', params: { id: clinicUser.id }, payload })).status).toBe(403);
      const row = await t.database.handle.db.selectFrom('users').select(['email', 'pending_email']).where('id', '=', clinicUser.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ email: clinicUser.email, pending_email: null });
    });

    it("keeps each company's journal to itself: the EHPAD's administrator reads none of the clinic's entries, the person of two companies only what their USER_LIST covers, and roles of the other company never show", async () => {
      const bo = PERSONAS.backoffice;
      const lyon = orgs.cliniqueSirets[0]!;
      // The clinic's user deactivated; the person of two companies given a role without permissions at the clinic; an EHPAD user created.
      expect((await callApi(t, { as: bo, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: clinicUser.id } })).status).toBe(200);
      const given = await callApi(t, { as: bo, method: 'POST', route: '/api/v2/users/{id}/roles', params: { id: twoCompanies.id }, payload: { organizationId: lyon.id, roleIds: [roles.ADHESION!] } });
      expect(given.status, JSON.stringify(given.body)).toBe(200);
      const ehpadUser = await fixtures(t.database.handle.db).user({ organizationId: orgs.ehpadSirets[0]!.id, roleCode: 'COMPTABLE' });
      expect((await callApi(t, { as: bo, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: ehpadUser.id } })).status).toBe(200);
      const journal = (as: string, query: Record<string, string> = {}) => callApi(t, { as, method: 'GET', route: '/api/v2/audit', query });
      type Seen = { entityId: string; sentence: string; changes: object; details: { field: string; before: string | null; after: string | null }[] };
      const about = async (as: string, id: string) => ((await journal(as, { userId: id })).body.items as Seen[]);

      // The EHPAD's administrator: nothing of the clinic's user, by list, history, search or filter.
      const ehpadAll = (await journal(PERSONAS.adminEhpad)).body.items as Seen[];
      expect(ehpadAll.map((e) => e.entityId)).not.toContain(clinicUser.id);
      expect(await about(PERSONAS.adminEhpad, clinicUser.id)).toEqual([]);
      expect((await journal(PERSONAS.adminEhpad, { search: clinicUser.email })).body.total).toBe(0);
      expect((await journal(PERSONAS.adminEhpad, { organizationId: orgs.clinique.id })).status).toBe(404);
      expect((await journal(PERSONAS.adminEhpad, { organizationId: lyon.id })).status).toBe(404);
      // The person of two companies: the EHPAD's entries, none of the clinic's user, the clinic as a filter refused.
      expect((await about(twoCompanies.email, ehpadUser.id)).map((e) => e.sentence)).toEqual([expect.stringMatching(/^Béatrice Marchand a désactivé /)]);
      expect(await about(twoCompanies.email, clinicUser.id)).toEqual([]);
      expect((await journal(twoCompanies.email, { organizationId: lyon.id })).status).toBe(404);
      expect((await journal(twoCompanies.email, { search: clinicUser.email })).body.total).toBe(0);
      // The role given at the clinic: the EHPAD's side reads that roles changed, never which, nor the recorded changes.
      for (const as of [PERSONAS.adminEhpad, twoCompanies.email]) {
        const [entry] = await about(as, twoCompanies.id);
        expect(entry!.sentence).toMatch(/^Béatrice Marchand a modifié les rôles de /);
        expect(entry!.details).toEqual([]);
        expect(entry!.changes).toEqual({});
      }
      // The clinic's administrator reads the role given at the clinic, and only the clinic's roles of that person.
      const [clinicSide] = await about(PERSONAS.adminClinique, twoCompanies.id);
      expect(clinicSide!.sentence).toMatch(new RegExp(`a attribué le rôle Adhésion à .* sur ${lyon.name} \\(SIRET `));
      expect(clinicSide!.changes).toEqual({});
      const [roleDetail] = clinicSide!.details;
      expect(roleDetail!.field).toBe('roles');
      expect(`${roleDetail!.before} ${roleDetail!.after}`).not.toMatch(/EHPAD|Admin Adhérent/);
      // The back office reads it all.
      const [full] = await about(bo, twoCompanies.id);
      expect(`${full!.details[0]!.before}`).toMatch(/Admin Adhérent sur EHPAD Les Glycines/);
    });

    // Attacker review R10: an organization caller's reach and pending reach are sent unseen by the planner
    // (users-list.repository.ts userFilter, users-read.repository.ts pendingInvitationFor, server/db/unseen.ts). For
    // a caller administering one establishment alone, the reach holds its SIREN only through
    // roles held there with inheritance: not through a role held on the SIREN alone, nor on a sibling establishment, nor
    // another company's SIREN held with inheritance;
    // and a request pending on the SIREN is not theirs to see.
    it("lists to a caller of one establishment the SIREN's people only when their role is inherited, and only its own pending requests", async () => {
      const f = fixtures(t.database.handle.db);
      const lyonId = orgs.cliniqueSirets[0]!.id;
      const sibling = orgs.cliniqueSirets[1]!;
      const caller = await f.user({ organizationId: lyonId, roleCode: 'ADMIN_ADHERENT', inherits: false, email: uniqueEmail('une.adresse') });
      const token = `portee${Date.now().toString(36).replace(/[0-9]/g, '')}`;
      const inherited = await f.user({ organizationId: orgs.clinique.id, roleCode: 'COMPTABLE', inherits: true, email: uniqueEmail(token) });
      const sirenAlone = await f.user({ organizationId: orgs.clinique.id, roleCode: 'COMPTABLE', inherits: false, email: uniqueEmail(token) });
      const atSibling = await f.user({ organizationId: sibling.id, roleCode: 'COMPTABLE', email: uniqueEmail(token) });
      const atLyon = await f.user({ organizationId: lyonId, roleCode: 'COMPTABLE', email: uniqueEmail(token) });
      const otherCompany = await f.user({ organizationId: orgs.ehpad.id, roleCode: 'COMPTABLE', inherits: true, email: uniqueEmail(token) });
      await f.pendingInvitation({ sirenId: orgs.clinique.id, inviteeEmail: atLyon.email.toUpperCase() });
      await f.pendingInvitation({ sirenId: lyonId, inviteeEmail: inherited.email });
      const answer = await list(caller.email, { search: token });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const items = answer.body.items as { id: string; hasPendingInvitation: boolean }[];
      expect(items.map((u) => u.id).sort()).toEqual([inherited.id, atLyon.id].sort());
      expect(Object.fromEntries(items.map((u) => [u.id, u.hasPendingInvitation]))).toEqual({ [inherited.id]: true, [atLyon.id]: false });
      // The back office lists all five, and both requests.
      const all = (await list(PERSONAS.backoffice, { search: token })).body.items as { id: string; hasPendingInvitation: boolean }[];
      expect(all.map((u) => u.id).sort()).toEqual([inherited.id, sirenAlone.id, atSibling.id, atLyon.id, otherCompany.id].sort());
      expect(all.filter((u) => u.hasPendingInvitation)).toHaveLength(2);
    });
  });
}
