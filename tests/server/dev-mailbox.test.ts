import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { freshEmail, invitationsApi, newPersonMetadata, organizationByName } from './support/invitations.ts';

// The local mailbox is a page of the local provider: PGlite is enough.
const backend = backends[0]!;

describe('the local mailbox (/oidc/dev/mailbox)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(backend);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("shows a new account's e-mail with its set-up link, filtered by recipient (any case), the text escaped", async () => {
    const api = invitationsApi(t);
    const email = freshEmail('boite');
    const { code } = await organizationByName(t, 'Clinique des Tilleuls');
    const created = await api.create('backoffice@portail.test', {
      inviteeEmail: email,
      roleCode: 'ADMIN_ADHERENT',
      invitationType: 'NEW_ADMIN',
      organizationCode: code,
      metadata: newPersonMetadata({ firstName: 'Zoé', lastName: "O'Brien" }),
    });
    expect((await api.approve('backoffice@portail.test', created.body.id)).status).toBe(200);

    const page = await t.app.inject({ method: 'GET', url: `/oidc/dev/mailbox?to=${encodeURIComponent(email.toUpperCase())}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain("<h1>Boîte d'envoi locale</h1>");
    expect(page.body).toContain(`À ${email}`);
    expect(page.body).toMatch(/<a href="https:\/\/[^"]+\/oidc\/account\/setup\?token=[^"]+">/);
    expect(page.body).toContain('O&#39;Brien');
    expect(page.body).not.toContain("O'Brien");
    // Only that recipient's e-mails.
    expect(page.body.match(/<article /g)).toHaveLength(1);
  });

  it('says when a recipient has no e-mail', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/oidc/dev/mailbox?to=personne@exemple-test.fr' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Aucun e-mail pour personne@exemple-test.fr.');
  });

  it('is linked from the local sign-in page', async () => {
    const { signInPage } = await import('../../server/dev-idp/pages.ts');
    expect(signInPage({ uid: 'u', email: '', error: null, demoAccounts: [] })).toContain('<a href="/oidc/dev/mailbox">boîte d\'envoi locale</a>');
  });
});
