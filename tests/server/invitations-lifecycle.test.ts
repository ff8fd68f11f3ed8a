// Issue 22 through the API: cancelling a request (its requester, or the back office holding USER_CREATE), a
// person's own requests (GET /invitations/mine), and the expiry a decision checks, on a fake clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { requestLifecycleJobs } from '../../server/jobs/invitation-lifecycle.ts';
import { callApi } from './support/api.ts';
import { fakeClock } from './support/fake-clock.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { freshEmail, invitationsApi, newPersonMetadata, organizationByName, traceCounts } from './support/invitations.ts';

const DAY = 24 * 3600_000;

for (const backend of backends) {
  describe(`the life of a request on ${backend.name}`, () => {
    // The services' clock; the jobs do not run (the decision checks the period by itself).
    const clock = fakeClock(Date.now());
    let t: TestApp;
    let api: ReturnType<typeof invitationsApi>;
    let clinicCode: string;
    let ehpadCode: string;

    beforeAll(async () => {
      t = await startTestApp(backend, { jobClock: clock, runJobs: false });
      api = invitationsApi(t);
      clinicCode = (await organizationByName(t, 'Clinique des Tilleuls')).code;
      ehpadCode = (await organizationByName(t, 'EHPAD Les Glycines')).code;
    });
    afterAll(async () => {
      await t?.close();
    });

    const db = () => t.database.handle.db;

    async function requestBy(requester: string, organizationCode = clinicCode) {
      const { status, body } = await api.create(requester, { inviteeEmail: freshEmail(), roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode, metadata: newPersonMetadata() });
      expect(status).toBe(201);
      return body as { id: number; inviteeEmail: string; allowedActions: string[]; expiresAt: string; createdAt: string };
    }

    it('lets the requester cancel their pending request with a reason: who, when and why kept, journaled, then refused a decision', async () => {
      const request = await requestBy('admin.clinique@portail.test');
      expect(request.allowedActions).toEqual(['cancel']);
      expect(new Date(request.expiresAt).getTime() - new Date(request.createdAt).getTime()).toBe(30 * DAY);
      const { status, body } = await api.cancel('admin.clinique@portail.test', request.id, { reason: '  La personne a quitté la clinique.  ' });
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: 'CANCELLED', cancelledByEmail: 'admin.clinique@portail.test', cancellationReason: 'La personne a quitté la clinique.', validatorEmail: null, allowedActions: [] });
      expect(body.processedAt).not.toBeNull();
      const audit = await db().selectFrom('audit_log').select(['action', 'actor_email', 'changes']).where('entity_type', '=', 'invitation').where('entity_id', '=', String(request.id)).orderBy('id').execute();
      expect(audit.map((a) => a.action)).toEqual(['invitation.create', 'invitation.cancel']);
      expect(audit[1]).toMatchObject({ actor_email: 'admin.clinique@portail.test', changes: { status: { before: 'PENDING', after: 'CANCELLED' }, cancellationReason: 'La personne a quitté la clinique.' } });
      const journal = await callApi(t, { as: 'backoffice@portail.test', method: 'GET', route: '/api/v2/audit', query: 'action=invitation.cancel' });
      const sentence = journal.body.items.map((e: { sentence: string }) => e.sentence).find((text: string) => text.includes(`n° ${request.id} `));
      expect(sentence).toMatch(new RegExp(` a annulé la demande n° ${request.id} de ${request.inviteeEmail.replace(/[.]/g, '\\.')} : « La personne a quitté la clinique\\. »\\.$`));

      const before = await traceCounts(t);
      for (const decision of [api.approve('backoffice@portail.test', request.id), api.reject('backoffice@portail.test', request.id, 'Un motif assez long.')]) {
        const refused = await decision;
        expect(refused.status).toBe(409);
        expect(refused.body.message).toBe('Cette demande a été annulée : elle ne peut plus être approuvée ni rejetée.');
      }
      const again = await api.cancel('admin.clinique@portail.test', request.id, {});
      expect(again.status).toBe(409);
      expect(again.body.message).toBe("Cette demande n'est plus en attente : elle ne peut plus être annulée.");
      expect(await traceCounts(t)).toEqual(before);
    });

    it('lets the back office holding USER_CREATE cancel any request, without a body; not the read-only back office nor another company', async () => {
      const request = await requestBy('admin.clinique@portail.test');
      expect((await api.cancel('lecteur@portail.test', request.id, {})).status).toBe(403);
      const other = await api.cancel('admin.ehpad@portail.test', request.id, {});
      expect(other.status).toBe(404);
      expect(other.body.message).toBe('Aucune invitation trouvée.');
      expect((await api.cancel('rh.clinique@portail.test', request.id, {})).status).toBe(404);
      const { status, body } = await api.cancel('backoffice@portail.test', request.id);
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: 'CANCELLED', cancelledByEmail: 'backoffice@portail.test', cancellationReason: null });
    });

    it('refuses a reason over 500 characters naming the field, and writes nothing', async () => {
      const request = await requestBy('admin.clinique@portail.test');
      const before = await traceCounts(t);
      const { status, body } = await api.cancel('admin.clinique@portail.test', request.id, { reason: 'x'.repeat(501) });
      expect(status).toBe(400);
      expect(body.fieldErrors).toEqual([{ field: 'body.reason', message: 'Le motif ne peut pas dépasser 500 caractères.' }]);
      expect(await traceCounts(t)).toEqual(before);
      expect((await api.cancel('admin.clinique@portail.test', request.id, { reason: 'x', extra: 1 })).status).toBe(400);
    });

    it('lists the requests the caller made, newest first, filtered by status, and nobody else’s', async () => {
      const first = await requestBy('admin.ehpad@portail.test', ehpadCode);
      const second = await requestBy('admin.ehpad@portail.test', ehpadCode);
      await api.cancel('admin.ehpad@portail.test', first.id, {});
      const all = await api.mine('admin.ehpad@portail.test', 'page=1&pageSize=10');
      expect(all.status).toBe(200);
      const ids = all.body.invitations.map((i: { id: number }) => i.id);
      expect(ids.slice(0, 2)).toEqual([second.id, first.id]);
      expect(all.body.invitations.every((i: { senderEmail: string }) => i.senderEmail === 'admin.ehpad@portail.test')).toBe(true);
      expect(all.body.totalCount).toBe(ids.length);
      const cancelled = await api.mine('admin.ehpad@portail.test', 'status=cancelled&page=1&pageSize=10');
      expect(cancelled.body.invitations.map((i: { id: number }) => i.id)).toEqual([first.id]);
      const pending = await api.mine('admin.ehpad@portail.test', 'status=PENDING,expired&page=1&pageSize=10');
      expect(pending.body.invitations.every((i: { status: string }) => i.status === 'PENDING' || i.status === 'EXPIRED')).toBe(true);
      expect(pending.body.invitations.find((i: { id: number }) => i.id === second.id).allowedActions).toEqual(['cancel']);
      expect(pending.body.invitations.some((i: { id: number }) => i.id === first.id)).toBe(false);
      expect((await api.mine('rh.clinique@portail.test', 'page=1&pageSize=10')).body.totalCount).toBe(0);
      expect((await api.mine('admin.ehpad@portail.test', 'status=perdue&page=1&pageSize=10')).status).toBe(400);
      // The back office's list stays closed to organization users.
      expect((await api.list('admin.ehpad@portail.test', 'status=pending,approved,rejected,expired,cancelled')).status).toBe(403);
    });

    it('the back office lists the new statuses, and all five as every request', async () => {
      const request = await requestBy('admin.clinique@portail.test');
      await api.cancel('admin.clinique@portail.test', request.id, {});
      const cancelled = await api.list('backoffice@portail.test', 'status=cancelled&pageSize=100');
      expect(cancelled.body.invitations.map((i: { id: number }) => i.id)).toContain(request.id);
      const every = await api.list('backoffice@portail.test', 'status=pending,approved,rejected,expired,cancelled');
      const none = await api.list('backoffice@portail.test', '');
      expect(every.body.totalCount).toBe(none.body.totalCount);
    });

    it('refuses to decide or cancel a request past its period, with the date it expired, before and after the expiry job marks it', async () => {
      const request = await requestBy('admin.clinique@portail.test');
      const expiresAt = new Date(request.expiresAt);
      const paris = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', day: '2-digit', month: '2-digit', year: 'numeric' }).format(expiresAt);
      clock.advance(expiresAt.getTime() - clock.now() - 60_000);
      expect((await api.get('backoffice@portail.test', request.id)).body.allowedActions).toEqual(['approve', 'reject', 'cancel']);
      clock.advance(60_000);
        expect((await api.get('backoffice@portail.test', request.id)).body).toMatchObject({ status: 'PENDING', allowedActions: [] });
        const before = await traceCounts(t);
        const approve = await api.approve('backoffice@portail.test', request.id);
        expect(approve.status).toBe(409);
        expect(approve.body.message).toBe(`Cette demande a expiré le ${paris} : elle ne peut plus être approuvée ni rejetée.`);
        const reject = await api.reject('backoffice@portail.test', request.id, 'Un motif assez long.');
        expect(reject.body.message).toBe(`Cette demande a expiré le ${paris} : elle ne peut plus être approuvée ni rejetée.`);
        const cancel = await api.cancel('admin.clinique@portail.test', request.id, {});
        expect(cancel.status).toBe(409);
        expect(cancel.body.message).toBe(`Cette demande a expiré le ${paris} : elle ne peut plus être annulée.`);
        expect(await traceCounts(t)).toEqual(before);

        const expiry = requestLifecycleJobs({ db: db(), requests: { expiryDays: 30, reminderPendingDays: 7, reminderBeforeExpiryDays: 3 }, listUrl: '/admin' })[0]!;
        expect(expiry.name).toBe('invitations.expiry');
        const summary = await expiry.run({ now: new Date(clock.now()), signal: new AbortController().signal, log: { info: () => {}, warn: () => {}, error: () => {} } });
        expect(summary).toMatchObject({ expired: expect.any(Number) });
        const expired = (await api.get('backoffice@portail.test', request.id)).body;
        expect(expired).toMatchObject({ status: 'EXPIRED', processedAt: expiresAt.toISOString(), expiresAt: expiresAt.toISOString(), allowedActions: [] });
        const after = await api.approve('backoffice@portail.test', request.id);
        expect(after.status).toBe(409);
        expect(after.body.message).toBe(`Cette demande a expiré le ${paris} : elle ne peut plus être approuvée ni rejetée.`);
        const journal = await db().selectFrom('audit_log').select(['action', 'actor_id', 'changes']).where('entity_id', '=', String(request.id)).where('action', '=', 'invitation.expire').execute();
        expect(journal).toEqual([{ action: 'invitation.expire', actor_id: null, changes: { status: { before: 'PENDING', after: 'EXPIRED' }, expiryDays: 30 } }]);
    });
  });
}
