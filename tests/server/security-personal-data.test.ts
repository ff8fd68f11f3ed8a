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

    it("refuses another's data to an employer administrator, even their own employee's, and tells no one outside the back office whether an id exists", async () => {
      const employee = await createUserAs(t, PERSONAS.adminClinique, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { email: uniqueEmail('salarie') });
      const backoffice = (await db().selectFrom('users').select('id').where('email', '=', PERSONAS.backoffice).executeTakeFirstOrThrow()).id;
      const unknown = '00000000-0000-4000-8000-000000000001';
      for (const as of [PERSONAS.adminClinique, PERSONAS.rhClinique, PERSONAS.adminEhpad, employee.user.email]) {
        for (const id of [employee.user.id, backoffice, unknown]) {
          if (id === employee.user.id && as === employee.user.email) continue;
          for (const format of ['json', 'html'] as const) {
            const refused = await callApi(t, { as, method: 'GET', route: PERSONAL, params: { id }, query: { format } });
            expect(refused.status, `${as} ${id} ${format}`).toBe(403);
          }
        }
      }
      expect((await callApi(t, { as: PERSONAS.lecteur, method: 'GET', route: PERSONAL, params: { id: employee.user.id } })).status).toBe(200);
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: PERSONAL, params: { id: 'pas-un-uuid' } })).status).toBe(400);
      expect((await callApi(t, { as: employee.user.email, method: 'GET', route: MINE, query: { format: 'HTML' } })).status).toBe(400);
    });

    it('writes every e-mail subject, request reason and address of the summary as text, and lets no link or token out', async () => {
      const person = await createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { email: uniqueEmail('cible') });
      const email = person.user.email;
      await db().updateTable('users').set({ street: '<svg onload=alert(1)>', city: '<a href="javascript:alert(2)">Lyon</a>' }).where('id', '=', person.user.id).execute();
      await db().insertInto('outbox').values({
        kind: 'invitation.rejected', recipient: email, subject: '<img src=x onerror=alert(3)> https://pirate.example/x?token=abc', status: 'SENT', sent_at: new Date(),
        body: 'Motif : <script>alert(4)</script>\nHTTPS://portail.example/compte/confirmer-email?token=secret123 et token=nu456 et www.exemple.fr/setup',
      }).execute();
      const request = await invitationsApi(t).create(PERSONAS.adminClinique, { inviteeEmail: email, invitationType: 'ROLE_ASSIGNMENT', organizationCode: orgs.cliniqueSirets[1]!.code, roleCode: 'COMPTABLE' });
      expect(request.status, JSON.stringify(request.body)).toBe(201);
      const rejected = await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/invitations/{id}/reject', params: { id: (request.body as { id: number }).id }, payload: { rejectionReason: '<b onmouseover=alert(5)>non</b>' } });
      expect(rejected.status).toBe(200);

      for (const as of [email, PERSONAS.backoffice]) {
        const answer = as === email
          ? await callApi(t, { as, method: 'GET', route: MINE, query: { format: 'html' } })
          : await callApi(t, { as, method: 'GET', route: PERSONAL, params: { id: person.user.id }, query: { format: 'html' } });
        expect(answer.status).toBe(200);
        const html = String(answer.body);
        expect(html).not.toMatch(/<(svg|img|script|b|a)[\s>]/i);
        expect(html).toContain('&lt;svg onload=alert(1)&gt;');
        expect(html).toContain('&lt;img src=x onerror=alert(3)&gt;');
        expect(html).toContain('&lt;script&gt;alert(4)&lt;/script&gt;');
        expect(html).toContain('&lt;b onmouseover=alert(5)&gt;non&lt;/b&gt;');
        for (const secret of ['secret123', 'nu456', 'token=', 'pirate.example', 'www.exemple.fr']) expect(html, secret).not.toContain(secret);
      }
    });
  });
}
