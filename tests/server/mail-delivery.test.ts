import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { backends, createTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { startSmtpTestServer, type SmtpTestServer } from './support/smtp-server.ts';
import { freePort } from './support/server-process.ts';
import { migrate } from '../../server/db/migrate.ts';
import { createMailDelivery, type DeliveryLog, type MailDeliveryOptions, type MailTransport } from '../../server/mail/delivery.ts';
import { enqueueMail } from '../../server/mail/outbox.ts';
import { accountInvitationMail } from '../../server/mail/templates.ts';
import { startTestApp } from './support/test-app.ts';
import { freshEmail, invitationsApi, newPersonMetadata, organizationByName } from './support/invitations.ts';

const quiet: DeliveryLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

for (const backend of backends) {
  describe(`e-mail delivery on ${backend.name}`, () => {
    let testDb: TestDatabase;
    let smtp: SmtpTestServer;

    beforeAll(async () => {
      testDb = await createTestDatabase(backend);
      await migrate(testDb.handle);
      smtp = await startSmtpTestServer();
    });
    afterAll(async () => {
      await smtp?.close();
      await testDb?.dispose();
    });
    beforeEach(async () => {
      // Each test starts from an empty outbox: a round takes every due row.
      await testDb.handle.db.deleteFrom('outbox').execute();
    });

    const db = () => testDb.handle.db;
    const delivery = (options: Partial<MailDeliveryOptions> = {}) =>
      createMailDelivery({ db: db(), smtpUrl: smtp.url, from: 'Portail Habilitations <no-reply@portail.test>', log: quiet, ...options });
    const mail = (marker: string) =>
      accountInvitationMail({ email: `${marker}@exemple-test.fr`, firstName: 'Zoé', lastName: 'Müller', setupUrl: `https://portail.test/oidc/account/setup?token=${marker}` });
    const row = (id: number) => db().selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('sends a pending e-mail through SMTP and marks it SENT', async () => {
      const id = await enqueueMail(db(), mail('envoi-simple'));
      const sender = delivery();
      expect(await sender.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
      await sender.stop();
      const sent = await row(id);
      expect(sent).toMatchObject({ status: 'SENT', attempts: 1, last_error: null });
      expect(sent.sent_at).toBeInstanceOf(Date);
      const received = smtp.received.find((m) => m.to.some((to) => to.includes('envoi-simple@exemple-test.fr')))!;
      expect(received.from).toContain('no-reply@portail.test');
      expect(received.data).toMatch(/^Subject: /m);
      // Quoted-printable: soft line breaks and '=' as =3D.
      expect(received.data.replace(/=\r\n/g, '').replace(/=3D/g, '=')).toContain('token=envoi-simple');
    });

    it('retries a failing SMTP server and marks the e-mail FAILED after the last attempt', async () => {
      const refusing = await startSmtpTestServer({ rejectWith: '451 4.3.0 Réessayez plus tard' });
      try {
        const id = await enqueueMail(db(), mail('refus'));
        const sender = delivery({ smtpUrl: refusing.url, maxAttempts: 3, retryDelaySeconds: () => 0 });
        expect(await sender.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
        expect(await row(id)).toMatchObject({ status: 'PENDING', attempts: 1 });
        expect((await row(id)).last_error).toContain('451');
        expect(await sender.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
        expect(await sender.runOnce()).toEqual({ sent: 0, retried: 0, failed: 1 });
        expect(await row(id)).toMatchObject({ status: 'FAILED', attempts: 3, sent_at: null });
        expect(await sender.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
        expect((await row(id)).attempts).toBe(3);
        expect(refusing.received).toEqual([]);
        await sender.stop();
      } finally {
        await refusing.close();
      }
    });

    it('waits before retrying: a failed e-mail is not taken again until its back-off ends', async () => {
      const port = await freePort();
      const id = await enqueueMail(db(), mail('injoignable'));
      const sender = delivery({ smtpUrl: `smtp://127.0.0.1:${port}`, maxAttempts: 5, retryDelaySeconds: () => 3600 });
      expect(await sender.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
      expect(await sender.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
      const waiting = await row(id);
      expect(waiting).toMatchObject({ status: 'PENDING', attempts: 1 });
      expect(waiting.last_error).toMatch(/ECONNREFUSED|connect/i);
      expect(waiting.next_attempt_at!.getTime()).toBeGreaterThan(Date.now() + 3000 * 1000);
      await sender.stop();
    });

    it('never sends one e-mail twice when two deliveries run at once (as two server processes would)', async () => {
      const other = backend.name === 'postgres' ? await testDb.openAnother() : testDb.handle;
      const ids = await Promise.all(Array.from({ length: 30 }, (_, i) => enqueueMail(db(), mail(`lot-${i}`))));
      const a = delivery({ batchSize: 7 });
      const b = createMailDelivery({ db: other.db, smtpUrl: smtp.url, from: 'x@portail.test', log: quiet, batchSize: 7 });
      let sent = 0;
      for (let round = 0; round < 10 && sent < 30; round += 1) {
        const [ra, rb] = await Promise.all([a.runOnce(), b.runOnce()]);
        sent += ra.sent + rb.sent;
      }
      await Promise.all([a.stop(), b.stop()]);
      expect(sent).toBe(30);
      for (let i = 0; i < 30; i += 1) {
        expect(smtp.received.filter((m) => m.to.some((to) => to.includes(`lot-${i}@`)))).toHaveLength(1);
      }
      const rows = await db().selectFrom('outbox').select(['status', 'attempts']).where('id', 'in', ids).execute();
      expect(rows.every((r) => r.status === 'SENT' && r.attempts === 1)).toBe(true);
    });

    it('leaves an e-mail being sent by one process to that process (lease)', async () => {
      let release!: () => void;
      const hanging: MailTransport = { sendMail: () => new Promise((resolve) => (release = () => resolve(undefined))), close: () => undefined };
      const id = await enqueueMail(db(), mail('bail'));
      const slow = delivery({ transport: hanging });
      const slowRound = slow.runOnce();
      await vi.waitFor(() => expect(release).toBeTypeOf('function'));
      const fast = delivery();
      expect(await fast.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
      release();
      expect(await slowRound).toEqual({ sent: 1, retried: 0, failed: 0 });
      expect(await row(id)).toMatchObject({ status: 'SENT', attempts: 1 });
      await Promise.all([slow.stop(), fast.stop()]);
    });

    it('marks FAILED an e-mail whose last attempt was cut short by a stopped process', async () => {
      const id = await enqueueMail(db(), mail('coupure'));
      await db().updateTable('outbox').set({ attempts: 5, next_attempt_at: new Date(Date.now() - 1000) }).where('id', '=', id).execute();
      const sender = delivery({ maxAttempts: 5 });
      expect(await sender.runOnce()).toEqual({ sent: 0, retried: 0, failed: 1 });
      expect(await row(id)).toMatchObject({ status: 'FAILED', last_error: "interrompu pendant l'envoi" });
      await sender.stop();
    });

    it('sends in the background once started, and stops', async () => {
      const sender = delivery({ intervalMs: 20 });
      sender.start();
      const id = await enqueueMail(db(), mail('boucle'));
      await vi.waitFor(async () => expect((await row(id)).status).toBe('SENT'), { timeout: 5000, interval: 20 });
      await sender.stop();
      const late = await enqueueMail(db(), mail('apres-arret'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await row(late)).status).toBe('PENDING');
    });
  });
}

for (const backend of backends) {
  describe(`the server with SMTP_URL on ${backend.name}`, () => {
    it("sends an approval's e-mails in the background, and stops sending when closed", async () => {
      const smtp = await startSmtpTestServer();
      const t = await startTestApp(backend, { env: { SMTP_URL: smtp.url, MAIL_FROM: 'Portail <portail@exemple-test.fr>' } });
      try {
        const api = invitationsApi(t);
        const email = freshEmail('smtp');
        const { code } = await organizationByName(t, 'Clinique des Tilleuls');
        const created = await api.create('admin.clinique@portail.test', { inviteeEmail: email, roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: code, metadata: newPersonMetadata() });
        expect((await api.approve('backoffice@portail.test', created.body.id)).status).toBe(200);
        await vi.waitFor(
          async () => {
            const rows = await t.database.handle.db.selectFrom('outbox').select(['recipient', 'status']).where('recipient', 'in', [email, 'admin.clinique@portail.test']).execute();
            expect(rows.length).toBeGreaterThanOrEqual(2);
            expect(rows.every((r) => r.status === 'SENT')).toBe(true);
          },
          { timeout: 10_000, interval: 50 },
        );
        expect(smtp.received.some((m) => m.to.some((to) => to.includes(email)) && m.from.includes('portail@exemple-test.fr'))).toBe(true);
        expect(smtp.received.some((m) => m.to.some((to) => to.includes('admin.clinique@portail.test')))).toBe(true);
      } finally {
        await t.close();
        await smtp.close();
      }
    });
  });
}
