// The pure rules of dormant accounts (issue 23): when an account is dormant and since when ('Inactif depuis le …'),
// the portal's journal author, and the e-mails' texts.
import { describe, expect, it } from 'vitest';
import { auditAuthor, SYSTEM_ACTOR } from '../../../server/core/actor.ts';
import { dormancyCutoff, dormantSince, statusChangeRecord } from '../../../server/features/users/users.model.ts';
import { dormancyWarningMail, unmanagedSirenMail } from '../../../server/mail/dormancy-templates.ts';

const NOW = new Date('2026-12-14T07:30:00Z');
const DAY = 24 * 3600_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);
const account = (over: Partial<Parameters<typeof dormantSince>[0]> = {}) => ({
  is_active: true,
  dormancy_warned_at: null,
  last_login_at: ago(400),
  created_at: ago(800),
  reactivated_at: null,
  ...over,
});

describe('dormant accounts', () => {
  const cutoff = dormancyCutoff(NOW, 365);

  it('counts the period from the latest of the sign-in, the creation and the reactivation', () => {
    expect(cutoff).toEqual(ago(365));
    expect(dormantSince(account(), cutoff)).toEqual(ago(400));
    expect(dormantSince(account({ last_login_at: ago(364) }), cutoff)).toBeNull();
    expect(dormantSince(account({ last_login_at: null, created_at: ago(366) }), cutoff)).toEqual(ago(366));
    expect(dormantSince(account({ last_login_at: null, created_at: ago(10) }), cutoff)).toBeNull();
    expect(dormantSince(account({ reactivated_at: ago(1) }), cutoff)).toBeNull();
  });

  it('keeps a warned account dormant, never a deactivated one; with the warning off, only the warned', () => {
    expect(dormantSince(account({ last_login_at: ago(10), dormancy_warned_at: ago(1) }), cutoff)).toEqual(ago(10));
    expect(dormantSince(account({ is_active: false }), cutoff)).toBeNull();
    expect(dormancyCutoff(NOW, 0)).toBeNull();
    expect(dormantSince(account(), null)).toBeNull();
    expect(dormantSince(account({ dormancy_warned_at: ago(1) }), null)).toEqual(ago(400));
  });

  it("writes the portal's journal entries by 'Système' without an author's id, a person's with theirs", () => {
    expect(auditAuthor(SYSTEM_ACTOR)).toEqual({ userId: null, email: null, name: 'Système' });
    expect(auditAuthor({ userId: null, email: null, name: 'Système' })).toEqual({ userId: null, email: null, name: 'Système' });
    expect(auditAuthor({ userId: 'u1', email: 'a@exemple.fr' })).toEqual({ userId: 'u1', email: 'a@exemple.fr' });
  });

  it('warns in plain French without any link, with the date of the deactivation when there is one', () => {
    const mail = dormancyWarningMail({ email: 'a@exemple.fr', firstName: 'Léa', lastName: 'Martin', inactiveSince: '01/12/2025', everSignedIn: true, deactivatesOn: '13/01/2027' });
    expect(mail).toMatchObject({ kind: 'account.dormancy.warning', recipient: 'a@exemple.fr', subject: 'Votre compte sera désactivé le 13/01/2027' });
    expect(mail.body).toContain('Bonjour Léa Martin,');
    expect(mail.body).toContain('Pour garder votre compte, connectez-vous au portail avant le 13/01/2027.');
    expect(mail.body).not.toMatch(/https?:|www\./);
    const notice = unmanagedSirenMail({ recipient: 'bo@exemple.fr', organizationName: 'Clinique', sirenCode: '787441799', administrators: ['x@exemple.fr', 'y@exemple.fr'], warnAfterDays: 365 });
    expect(notice.body).toContain('Ses derniers administrateurs (x@exemple.fr, y@exemple.fr) ne se sont pas connectés depuis plus de 365 jours');
    expect(notice.body).toContain('Vous pouvez leur demander de se connecter');
  });
});

describe("the journal's record of a change of status", () => {
  const warnedAt = new Date('2026-10-11T22:30:00.000Z');
  it('keeps the warning a reactivation clears, and no warning for a deactivation (it keeps the warning) or an account not warned', () => {
    expect(statusChangeRecord({ is_active: false, dormancy_warned_at: warnedAt }, true)).toEqual({
      isActive: { before: false, after: true },
      dormancyWarnedAt: { before: warnedAt.toISOString(), after: null },
    });
    expect(statusChangeRecord({ is_active: true, dormancy_warned_at: warnedAt }, false)).toEqual({ isActive: { before: true, after: false } });
    expect(statusChangeRecord({ is_active: false, dormancy_warned_at: null }, true)).toEqual({ isActive: { before: false, after: true } });
  });
});
