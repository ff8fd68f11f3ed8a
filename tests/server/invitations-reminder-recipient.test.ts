// The reminder before a request expires goes to its requester as they are now (security review): not to one who
// left (deactivated), who would read the invitee's address, the organization and the role of a request they can no
// longer see nor cancel; to a requester whose address changed, at the new one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { remindRequestersBeforeExpiry } from '../../server/features/invitations/invitations-lifecycle.service.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { freshEmail, invitationsApi, newPersonMetadata, organizationByName } from './support/invitations.ts';

const DAY = 24 * 3600_000;

for (const backend of backends) {
  describe(`the reminder before expiry, to the requester as they are now, on ${backend.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(backend);
    });
    afterAll(() => t?.close());
    const db = () => t.database.handle.db;

    it('does not remind a requester whose account was deactivated since the request', async () => {
      const api = invitationsApi(t);
      const clinic = await organizationByName(t, 'Clinique des Tilleuls');
      const invitee = freshEmail();
      const made = await api.create('admin.clinique@portail.test', { inviteeEmail: invitee, roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: clinic.code, metadata: newPersonMetadata() });
      expect(made.status).toBe(201);
      // The requester leaves the company: the back office deactivates them.
      const requester = await db().selectFrom('users').select('id').where('email', '=', 'admin.clinique@portail.test').executeTakeFirstOrThrow();
      const off = await t.app.inject({ method: 'POST', url: `/api/v2/users/${requester.id}/deactivate`, headers: { authorization: `Bearer ${await t.tokenFor('backoffice@portail.test')}` } });
      expect(off.statusCode).toBe(200);
      try {
        const now = new Date(new Date(made.body.createdAt).getTime() + 28 * DAY);
        await remindRequestersBeforeExpiry(db(), now, { expiryDays: 30, beforeDays: 3 });
        const mails = await db().selectFrom('outbox').select(['recipient', 'body']).where('kind', '=', 'invitation.expiring').execute();
        const aboutIt = mails.filter((m) => m.body.includes(invitee));
        expect(aboutIt).toEqual([]);
      } finally {
        await db().updateTable('users').set({ is_active: true }).where('id', '=', requester.id).execute();
      }
    });

    it('reminds a requester at their address of today', async () => {
      const api = invitationsApi(t);
      const clinic = await organizationByName(t, 'Clinique des Tilleuls');
      const invitee = freshEmail();
      const made = await api.create('admin.clinique@portail.test', { inviteeEmail: invitee, roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: clinic.code, metadata: newPersonMetadata() });
      expect(made.status).toBe(201);
      const requester = await db().selectFrom('users').select(['id', 'email']).where('email', '=', 'admin.clinique@portail.test').executeTakeFirstOrThrow();
      await db().updateTable('users').set({ email: 'claire.vasseur@clinique-des-tilleuls.fr' }).where('id', '=', requester.id).execute();
      try {
        const now = new Date(new Date(made.body.createdAt).getTime() + 28 * DAY);
        expect(await remindRequestersBeforeExpiry(db(), now, { expiryDays: 30, beforeDays: 3 })).toBeGreaterThanOrEqual(1);
        const mails = await db().selectFrom('outbox').select(['recipient', 'body']).where('kind', '=', 'invitation.expiring').execute();
        expect(mails.filter((m) => m.body.includes(invitee)).map((m) => m.recipient)).toEqual(['claire.vasseur@clinique-des-tilleuls.fr']);
      } finally {
        await db().updateTable('users').set({ email: requester.email }).where('id', '=', requester.id).execute();
      }
    });
  });
}
