// A requester whose administrator role on the organization of their request was removed (they still hold a role in
// another company, as deux.societes does) no longer reads it in 'Mes demandes', cancels it, nor is reminded of it
// before it expires (security review).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { remindRequestersBeforeExpiry } from '../../server/features/invitations/invitations-lifecycle.service.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { freshEmail, invitationsApi, newPersonMetadata, organizationByName, firstSiretOf } from './support/invitations.ts';

for (const backend of backends) {
  describe(`a former administrator's requests on ${backend.name}`, () => {
    let t: TestApp;
    let api: ReturnType<typeof invitationsApi>;
    beforeAll(async () => {
      t = await startTestApp(backend, { runJobs: false });
      api = invitationsApi(t);
    });
    afterAll(async () => {
      await t?.close();
    });
    const db = () => t.database.handle.db;

    /** An administrator of the clinic who also holds COMPTABLE at an EHPAD establishment. */
    async function adminOfTwo() {
      const clinic = await organizationByName(t, 'Clinique des Tilleuls');
      const ehpadSiret = await firstSiretOf(t, (await organizationByName(t, 'EHPAD Les Glycines')).id);
      const role = async (code: string) => (await db().selectFrom('roles').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
      const id = randomUUID();
      const subject = randomUUID();
      const email = `ancien.admin.${id.slice(0, 8)}@exemple-test.fr`;
      await db().insertInto('identity_accounts').values({ subject, email, display_name: 'Ancien Admin', password_hash: null, enabled: true }).execute();
      await db().insertInto('users').values({ id, auth_id: subject, email, first_name: 'Ancien', last_name: 'Admin', user_type: 'ORGANIZATION', is_active: true, job_title: 'x', postal_code: '75001', city: 'Paris', street: '1 rue' }).execute();
      await db().insertInto('role_assignments').values([
        { user_id: id, organization_id: clinic.id, role_id: await role('ADMIN_ADHERENT'), inherits_to_children: true },
        { user_id: id, organization_id: ehpadSiret.id, role_id: await role('COMPTABLE'), inherits_to_children: false },
      ]).execute();
      return { id, email, clinic };
    }

    /** Their request on the clinic, then the clinic removes them as administrator; they stay an active user of the EHPAD. */
    async function formerAdminWithRequest() {
      const person = await adminOfTwo();
      const made = await api.create(person.email, { inviteeEmail: freshEmail(), roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: person.clinic.code, metadata: newPersonMetadata() });
      expect(made.status).toBe(201);
      await db().deleteFrom('role_assignments').where('user_id', '=', person.id).where('organization_id', '=', person.clinic.id).execute();
      return { person, made };
    }

    it("no longer shows in 'Mes demandes' a request on an organization where the requester lost every role", async () => {
      const { person, made } = await formerAdminWithRequest();
      const mine = await api.mine(person.email);
      const seen = (mine.body.invitations as { id: number; inviteeEmail: string }[]).find((i) => i.id === made.body.id);
      expect(seen, `the clinic's request, invitee ${seen?.inviteeEmail}, still listed`).toBeUndefined();
    });

    it('refuses (404) the cancellation of that request by its former administrator', async () => {
      const { person, made } = await formerAdminWithRequest();
      const cancelled = await api.cancel(person.email, made.body.id, { reason: 'Annulée par un ancien administrateur.' });
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(404);
    });

    it('does not remind that former administrator before the request expires (the invitee, the organization, the role)', async () => {
      const { person, made } = await formerAdminWithRequest();
      const now = new Date(new Date(made.body.createdAt).getTime() + 28 * 24 * 3600_000);
      await remindRequestersBeforeExpiry(db(), now, { expiryDays: 30, beforeDays: 3 });
      const mails = await db().selectFrom('outbox').select(['recipient', 'body']).where('kind', '=', 'invitation.expiring').execute();
      expect(mails.filter((m) => m.body.includes(made.body.inviteeEmail)).map((m) => m.recipient)).not.toContain(person.email);
    });
  });
}
