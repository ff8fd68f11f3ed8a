// Approving a request gives its role to the account that held the invitee's address when the request was
// made (or to a new account when none did), never to whoever holds the address at approval time (issue 19).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { freshEmail, invitationsApi, newPersonMetadata, traceCounts } from './support/invitations.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, confirmEmailChange, createUserAs, type ApiAnswer, PERSONAS, startUsersApp, type DemoOrganizations, type RoleIds } from './support/users-api.ts';

const ACCOUNT_CHANGED = "Le compte associé à cette adresse a changé depuis la demande : vérifiez la personne avant d'approuver.";

for (const backend of backends) {
  describe(`the account of a request's address, from request to approval, on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    let api: ReturnType<typeof invitationsApi>;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
      api = invitationsApi(t);
    });
    afterAll(() => t?.close());

    const db = () => t.database.handle.db;
    /** A user of the EHPAD, made by its administrator: an account admin.ehpad controls. */
    const ehpadUser = () => createUserAs(t, PERSONAS.adminEhpad, [orgs.ehpadSirets[0]!.code], [roles.COMPTABLE!], { email: freshEmail('complice') });
    /** The e-mail change as the actor asks for it, then confirmed from the new address (as an accomplice holding it would). */
    const rename = async (as: string, id: string, email: string) => {
      const answer = await callApi(t, { as, method: 'PUT', route: '/api/v2/users/{id}', params: { id }, payload: { firstName: 'Paul', lastName: 'Complice', email, metadata: null } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect((await confirmEmailChange(t, email)).status).toBe(200);
      return answer;
    };
    const cliniqueAdminRequest = async (inviteeEmail: string) => {
      const created = await api.create(PERSONAS.adminClinique, { inviteeEmail, roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: orgs.clinique.code, metadata: newPersonMetadata() });
      expect(created.status).toBe(201);
      return created.body.id as number;
    };
    const rolesOf = (userId: string) =>
      db().selectFrom('role_assignments').innerJoin('roles', 'roles.id', 'role_assignments.role_id').select(['organization_id', 'code']).where('user_id', '=', userId).execute();

    it("refuses (409) to make an account renamed to a pending invitee's address the other company's administrator, and writes nothing", async () => {
      const invitee = freshEmail('futur.admin');
      const id = await cliniqueAdminRequest(invitee);
      const accomplice = await ehpadUser();
      await rename(PERSONAS.adminEhpad, accomplice.user.id, invitee);

      const before = await traceCounts(t);
      const { status, body } = await api.approve(PERSONAS.backoffice, id);
      expect(status).toBe(409);
      expect(body.message).toBe(ACCOUNT_CHANGED);
      expect(await traceCounts(t)).toEqual(before);
      expect(await rolesOf(accomplice.user.id)).toEqual([{ organization_id: orgs.ehpadSirets[0]!.id, code: 'COMPTABLE' }]);
      expect((await api.get(PERSONAS.backoffice, id)).body.status).toBe('PENDING');
    });

    it('refuses (409) when the account that held the address at the request no longer holds it, rather than creating a new one', async () => {
      const holder = await ehpadUser();
      const id = await cliniqueAdminRequest(holder.user.email);
      await rename(PERSONAS.backoffice, holder.user.id, freshEmail('ailleurs'));
      const before = await traceCounts(t);
      const { status, body } = await api.approve(PERSONAS.backoffice, id);
      expect(status).toBe(409);
      expect(body.message).toBe(ACCOUNT_CHANGED);
      expect(await traceCounts(t)).toEqual(before);
    });

    it('approves for the account that held the address at the request, and creates an account when none did and none does', async () => {
      const holder = await ehpadUser();
      const forHolder = await cliniqueAdminRequest(holder.user.email);
      expect((await api.approve(PERSONAS.backoffice, forHolder)).status).toBe(200);
      expect(await rolesOf(holder.user.id)).toContainEqual({ organization_id: orgs.clinique.id, code: 'ADMIN_ADHERENT' });

      const invitee = freshEmail('nouvelle');
      const forNobody = await cliniqueAdminRequest(invitee);
      expect((await api.approve(PERSONAS.backoffice, forNobody)).status).toBe(200);
      const created = await db().selectFrom('users').select('id').where('email', '=', invitee).executeTakeFirstOrThrow();
      expect(created.id).not.toBe(holder.user.id);
    });

    it("answers a rename alike whether or not the new address is a pending request's invitee (no oracle)", async () => {
      const invitee = freshEmail('attendu');
      await cliniqueAdminRequest(invitee);
      const [a, b] = [await ehpadUser(), await ehpadUser()];
      const toInvitee = await rename(PERSONAS.adminEhpad, a.user.id, invitee);
      const elsewhere = await rename(PERSONAS.adminEhpad, b.user.id, freshEmail('attendu'));
      const shape = (answer: ApiAnswer) => ({
        status: answer.status,
        keys: Object.keys(answer.body.user).sort(),
        headers: Object.keys(answer.headers).filter((h) => h !== 'date' && h !== 'x-request-id' && h !== 'content-length' && h !== 'etag').sort(),
      });
      expect(shape(toInvitee)).toEqual(shape(elsewhere));
    });
  });
}
