// Attacker review of a person's data on request (issue 23): what the download holds is the person's own, found by
// their account or their confirmed address. An address only asked for (pending, never confirmed) proves nothing:
// an employer administrator who types another company's address as an employee's new e-mail must not get that
// address's requests and e-mails in the employee's download.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { freshEmail, invitationsApi } from './support/invitations.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, createUserAs, PERSONAS, startUsersApp, uniqueEmail, type DemoOrganizations, type RoleIds } from './support/users-api.ts';

const MINE = '/api/v2/users/me/personal-data' as const;
const PERSONAL = '/api/v2/users/{id}/personal-data' as const;

for (const backend of backends) {
  describe(`a person's data on request under attack on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
    });
    afterAll(() => t?.close());
    const db = () => t.database.handle.db;

    it("gives no requests or e-mails of an address only asked for, not confirmed (another company's)", async () => {
      // Another company's request for a newcomer, with their profile, and an e-mail sent to that address.
      const target = freshEmail('victime');
      const ehpadRequest = await invitationsApi(t).create(PERSONAS.adminEhpad, { inviteeEmail: target, invitationType: 'ROLE_ASSIGNMENT', organizationCode: orgs.ehpadSirets[0]!.code, roleCode: 'COMPTABLE' });
      expect(ehpadRequest.status, JSON.stringify(ehpadRequest.body)).toBe(201);
      await db().insertInto('outbox').values({ kind: 'account.invitation', recipient: target, subject: 'Votre compte', body: 'Bonjour Victorine Secret, confidentiel EHPAD.', status: 'SENT', sent_at: new Date() }).execute();

      // The clinic's administrator makes an employee, then types the target as the employee's new e-mail (never confirmed).
      const employee = await createUserAs(t, PERSONAS.adminClinique, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { email: uniqueEmail('complice') });
      const edited = await callApi(t, { as: PERSONAS.adminClinique, method: 'PUT', route: '/api/v2/users/{id}', params: { id: employee.user.id }, payload: { firstName: 'Côme', lastName: 'Plice', email: target, metadata: null } });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      expect((await db().selectFrom('users').select('pending_email').where('id', '=', employee.user.id).executeTakeFirstOrThrow()).pending_email).toBe(target);

      for (const [as, route, params] of [[employee.user.email, MINE, {}], [PERSONAS.backoffice, PERSONAL, { id: employee.user.id }]] as const) {
        const own = await callApi(t, { as, method: 'GET', route, params, query: { format: 'json' } });
        expect(own.status).toBe(200);
        expect(own.body.person.pendingEmail).toBe(target);
        expect(own.body.requestsReceived.map((r: { id: number }) => r.id)).not.toContain((ehpadRequest.body as { id: number }).id);
        const text = JSON.stringify(own.body);
        expect(text).not.toContain('Victorine');
        expect(text).not.toContain('EHPAD Les Glycines');
        // The confirmation link's e-mail to the new address is theirs (it names their current address), without its link.
        expect(own.body.emails.map((m: { subject: string }) => m.subject)).toContain('Confirmez votre nouvelle adresse de connexion');
      }
    });
  });
}
