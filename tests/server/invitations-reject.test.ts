import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { freshEmail, invitationsApi, newPersonMetadata, organizationByName, traceCounts } from './support/invitations.ts';

for (const backend of backends) {
  describe(`rejecting invitations on ${backend.name}`, () => {
    let t: TestApp;
    let api: ReturnType<typeof invitationsApi>;
    let sirenCode: string;

    beforeAll(async () => {
      t = await startTestApp(backend);
      api = invitationsApi(t);
      sirenCode = (await organizationByName(t, 'Clinique des Tilleuls')).code;
    });
    afterAll(async () => {
      await t?.close();
    });

    const db = () => t.database.handle.db;

    async function pending(email = freshEmail()) {
      const { body } = await api.create('admin.clinique@portail.test', { inviteeEmail: email, roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: sirenCode, metadata: newPersonMetadata() });
      return body as { id: number; inviteeEmail: string };
    }

    it('refuses a reason of 9 characters once trimmed, with the French message on body.rejectionReason', async () => {
      const { id } = await pending();
      const before = await traceCounts(t);
      const { status, body } = await api.reject('backoffice@portail.test', id, '   123456789   ');
      expect(status).toBe(400);
      expect(body.message).toBe('Le motif doit contenir au moins 10 caractères (9/10)');
      expect(body.fieldErrors).toEqual([{ field: 'body.rejectionReason', message: 'Le motif doit contenir au moins 10 caractères (9/10)' }]);
      expect(await traceCounts(t)).toEqual(before);
      expect((await api.get('backoffice@portail.test', id)).body.status).toBe('PENDING');
    });

    it('refuses a blank reason as missing, and an empty one by the contract', async () => {
      const { id } = await pending();
      const blank = await api.reject('backoffice@portail.test', id, '     ');
      expect(blank.status).toBe(400);
      expect(blank.body.fieldErrors).toEqual([{ field: 'body.rejectionReason', message: 'Le motif du rejet est obligatoire' }]);
      const empty = await api.reject('backoffice@portail.test', id, '');
      expect(empty.status).toBe(400);
      expect(empty.body.fieldErrors[0].field).toBe('body.rejectionReason');
    });

    it('rejects with a reason of 10 characters: stored trimmed, validator and date recorded, audited, the requester told', async () => {
      const invitation = await pending();
      const mailsBefore = (await db().selectFrom('outbox').select('id').where('recipient', '=', 'admin.clinique@portail.test').execute()).length;
      const { status, body } = await api.reject('backoffice@portail.test', invitation.id, '  1234567890 ');
      expect(status).toBe(200);
      expect(body).toMatchObject({ id: invitation.id, status: 'REJECTED', rejectionReason: '1234567890', validatorEmail: 'backoffice@portail.test' });
      expect(body.processedAt).not.toBeNull();
      const audit = await db().selectFrom('audit_log').selectAll().where('entity_type', '=', 'invitation').where('entity_id', '=', String(invitation.id)).orderBy('id').execute();
      expect(audit.map((a) => a.action)).toEqual(['invitation.create', 'invitation.reject']);
      expect(audit[1]!.changes).toMatchObject({ rejectionReason: '1234567890' });
      const mails = await db().selectFrom('outbox').selectAll().where('recipient', '=', 'admin.clinique@portail.test').orderBy('id').execute();
      expect(mails.slice(mailsBefore).map((m) => m.kind)).toEqual(['invitation.rejected']);
      expect(mails.at(-1)!.body).toContain('« 1234567890 »');
      expect(mails.at(-1)!.body).toContain(invitation.inviteeEmail);
      // Nobody's account was created.
      expect(await db().selectFrom('users').select('id').where('email', '=', invitation.inviteeEmail).execute()).toEqual([]);
    });

    it('answers 409 to a second decision and changes nothing', async () => {
      const { id } = await pending();
      expect((await api.reject('backoffice@portail.test', id, 'Le SIREN ne correspond pas.')).status).toBe(200);
      const decided = (await api.get('backoffice@portail.test', id)).body;
      const before = await traceCounts(t);
      const again = await api.reject('backoffice@portail.test', id, 'Un autre motif assez long.');
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('Cette demande a déjà été traitée.');
      expect((await api.approve('backoffice@portail.test', id)).status).toBe(409);
      expect(await traceCounts(t)).toEqual(before);
      expect((await api.get('backoffice@portail.test', id)).body).toEqual(decided);
    });

    it('gives exactly one decision when approvals and rejections race', async () => {
      const { id } = await pending();
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? api.approve('backoffice@portail.test', id) : api.reject('backoffice@portail.test', id, 'Motif de la course numéro ' + i))),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
    });

    it('keeps rejections to the back office with USER_CREATE (403 before looking at the reason)', async () => {
      const { id } = await pending();
      for (const email of ['lecteur@portail.test', 'admin.clinique@portail.test']) {
        expect((await api.reject(email, id, 'court')).status).toBe(403);
      }
      expect((await api.get('backoffice@portail.test', id)).body.status).toBe('PENDING');
    });

    it('answers 404 for an unknown invitation', async () => {
      expect((await api.reject('backoffice@portail.test', 987654321, 'Motif valable ici')).status).toBe(404);
    });

    it('is guarded by the database too: a short reason cannot be stored', async () => {
      const { id } = await pending();
      await expect(
        sql`update invitations set status = 'REJECTED', rejection_reason = '  court  ', validator_email = 'x@y.fr', processed_at = now() where id = ${id}`.execute(db()),
      ).rejects.toThrow(/invitations_rejection_reason/);
    });
  });
}
