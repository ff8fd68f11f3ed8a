import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { migrate } from '../../server/db/migrate.ts';
import { readConfig } from '../../server/config.ts';
import { enqueueMail, logQueuedMails, type MailLog, type QueuedMail } from '../../server/mail/outbox.ts';
import { accountInvitationMail, invitationApprovedMail, invitationRejectedMail, type InvitationMailInput } from '../../server/mail/templates.ts';

const request: InvitationMailInput = {
  senderEmail: 'admin.clinique@portail.test',
  inviteeEmail: 'marie.durand@exemple.fr',
  invitationId: 42,
  invitationType: 'NEW_ADMIN',
  organizationCode: '552100554',
  organizationName: 'Clinique des Tilleuls',
  roleName: 'Administrateur adhérent ("Admin Adhérent")',
};

describe('the e-mail templates', () => {
  it('invites a new account holder to set up their access, in French, with the link', () => {
    const mail = accountInvitationMail({ email: 'marie.durand@exemple.fr', firstName: 'Marie', lastName: 'Durand', setupUrl: 'https://portail.test/oidc/account/setup?token=abc' });
    expect(mail).toMatchObject({ kind: 'account.invitation', recipient: 'marie.durand@exemple.fr', subject: 'Votre compte sur le Portail Habilitations' });
    expect(mail.body).toContain('Bonjour Marie Durand,');
    expect(mail.body).toContain('https://portail.test/oidc/account/setup?token=abc');
  });

  it('tells the requester of an approval, naming the request, the person and the organization', () => {
    const mail = invitationApprovedMail(request);
    expect(mail).toMatchObject({ kind: 'invitation.approved', recipient: 'admin.clinique@portail.test', subject: 'Demande n° 42 approuvée' });
    expect(mail.body).toContain("La demande d'administrateur pour « marie.durand@exemple.fr »");
    expect(mail.body).toContain('Clinique des Tilleuls, 552100554');
    expect(invitationApprovedMail({ ...request, invitationType: 'ROLE_ASSIGNMENT', roleName: 'Comptable' }).body).toContain("d'attribution du rôle « Comptable »");
  });

  it('tells the requester of a rejection with its reason', () => {
    const mail = invitationRejectedMail({ ...request, rejectionReason: 'Le SIREN ne correspond pas.' });
    expect(mail).toMatchObject({ kind: 'invitation.rejected', recipient: 'admin.clinique@portail.test', subject: 'Demande n° 42 refusée' });
    expect(mail.body).toContain('a été rejetée avec le motif :');
    expect(mail.body).toContain('« Le SIREN ne correspond pas. »');
  });
});

describe('the outbox without an SMTP server', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase({ name: 'pglite' });
    await migrate(testDb.handle);
  });
  afterAll(async () => {
    await testDb?.dispose();
  });

  it('keeps the e-mail readable in the table, and logs only its outbox id and kind once the transaction committed', async () => {
    const lines: { details: Record<string, unknown>; message: string }[] = [];
    const log: MailLog = { info: (details, message) => lines.push({ details: details as Record<string, unknown>, message }) };
    const mail = accountInvitationMail({ email: 'marie.durand@exemple.fr', firstName: 'Marie', lastName: 'Durand', setupUrl: 'https://portail.test/oidc/account/setup?token=secret' });
    const queued: QueuedMail[] = [];
    const id = await testDb.handle.db.transaction().execute(async (trx) => {
      const written = await enqueueMail(trx, mail, queued);
      expect(lines).toEqual([]);
      return written;
    });
    const row = await testDb.handle.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ ...mail, status: 'PENDING', attempts: 0, sent_at: null });
    expect(queued).toEqual([{ id, kind: 'account.invitation' }]);
    logQueuedMails(queued, log);
    expect(lines).toEqual([{ details: { outboxId: id, kind: mail.kind }, message: expect.stringContaining('SMTP_URL') }]);
  });

  it('writes nothing when the transaction rolls back', async () => {
    const mail = invitationApprovedMail(request);
    await expect(
      testDb.handle.db.transaction().execute(async (trx) => {
        await enqueueMail(trx, mail);
        throw new Error('échec de la modification');
      }),
    ).rejects.toThrow('échec');
    expect(await testDb.handle.db.selectFrom('outbox').select('id').where('kind', '=', 'invitation.approved').execute()).toEqual([]);
  });
});

describe('the mail settings', () => {
  it('reads SMTP_URL and MAIL_FROM, and defaults the sender to the public host', () => {
    expect(readConfig({ SMTP_URL: 'smtp://relay.example.fr:25', MAIL_FROM: 'Portail <portail@example.fr>' }).mail).toEqual({ smtpUrl: 'smtp://relay.example.fr:25', from: 'Portail <portail@example.fr>' });
    expect(readConfig({ PUBLIC_ORIGIN: 'https://habilitations.example.fr' }).mail).toEqual({ smtpUrl: null, from: 'Portail Habilitations <no-reply@habilitations.example.fr>' });
  });
});
