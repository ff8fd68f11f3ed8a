import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { freshEmail, invitationsApi, newPersonMetadata, organizationByName } from './support/invitations.ts';
import { verifyLocalCredentials } from '../../server/identity/local-accounts.ts';
import { configureAccountSetup, createAccountSetupToken, readAccountSetupToken } from '../../server/identity/account-setup-links.ts';
import { loadSigningKeys } from '../../server/dev-idp/signing-keys.ts';

const PASSWORD = 'Un-mot-de-passe-2026';

for (const backend of backends) {
  describe(`the account set-up link of a new administrator on ${backend.name}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    /** Approves a NEW_ADMIN for a new email and answers its e-mail's link (path and query) and the new subject. */
    async function newAccount() {
      const api = invitationsApi(t);
      const email = freshEmail('mot.de.passe');
      const { code } = await organizationByName(t, 'Clinique des Tilleuls');
      const created = await api.create('backoffice@portail.test', { inviteeEmail: email, roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: code, metadata: newPersonMetadata() });
      expect((await api.approve('backoffice@portail.test', created.body.id)).status).toBe(200);
      const mail = await t.database.handle.db.selectFrom('outbox').select('body').where('recipient', '=', email).where('kind', '=', 'account.invitation').executeTakeFirstOrThrow();
      const url = new URL(/https:\/\/\S+/.exec(mail.body)![0]);
      const { auth_id: subject } = await t.database.handle.db.selectFrom('users').select('auth_id').where('email', '=', email).executeTakeFirstOrThrow();
      return { email, link: `${url.pathname}${url.search}`, token: url.searchParams.get('token')!, subject: subject! };
    }

    const open = (link: string) => t.app.inject({ method: 'GET', url: link });
    const submit = (fields: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/oidc/account/setup', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });

    it('shows the French form, then sets the password once; the new password signs in', async () => {
      const { email, link, token } = await newAccount();
      expect(await verifyLocalCredentials(t.database.handle.db, email, PASSWORD)).toBeNull();

      const page = await open(link);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['content-security-policy']).toContain("default-src 'self'");
      expect(page.body).toContain('<h1>Choisissez votre mot de passe</h1>');
      expect(page.body).toContain('<label for="password">Mot de passe</label>');
      expect(page.body).toContain('<label for="confirmation">Confirmez le mot de passe</label>');
      expect(page.body).toContain(email);

      const short = await submit({ token, password: 'court', confirmation: 'court' });
      expect(short.statusCode).toBe(400);
      expect(short.body).toContain('Le mot de passe doit contenir au moins 12 caractères.');
      const mismatch = await submit({ token, password: PASSWORD, confirmation: `${PASSWORD}!` });
      expect(mismatch.statusCode).toBe(400);
      expect(mismatch.body).toContain('Les deux mots de passe ne correspondent pas.');

      const done = await submit({ token, password: PASSWORD, confirmation: PASSWORD });
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain('Mot de passe enregistré');
      expect(done.body).toContain('href="/authentication/sign-in"');
      expect(await verifyLocalCredentials(t.database.handle.db, email, PASSWORD)).toMatchObject({ email });

      // Single use: neither the page nor the form accepts the link again.
      const reopened = await open(link);
      expect(reopened.statusCode).toBe(400);
      expect(reopened.body).toContain('Lien invalide');
      expect((await submit({ token, password: 'Un-autre-mot-de-passe', confirmation: 'Un-autre-mot-de-passe' })).statusCode).toBe(400);
      expect(await verifyLocalCredentials(t.database.handle.db, email, PASSWORD)).not.toBeNull();
    });

    it('sets the password once when the form is sent twice at the same moment', async () => {
      const { email, token } = await newAccount();
      const answers = await Promise.all(['Premier-mot-de-passe', 'Second-mot-de-passe'].map((password) => submit({ token, password, confirmation: password })));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
      const winner = answers[0]!.statusCode === 200 ? 'Premier-mot-de-passe' : 'Second-mot-de-passe';
      expect(await verifyLocalCredentials(t.database.handle.db, email, winner)).not.toBeNull();
    });

    it('refuses an expired link, a forged one, and one signed with another secret', async () => {
      const { email, subject, token } = await newAccount();
      const expired = createAccountSetupToken(t.keys.accountSetupSecret, subject, { email, now: new Date(Date.now() - 8 * 24 * 3600 * 1000) });
      const [payload, signature] = token.split('.') as [string, string];
      const otherSubject = Buffer.from(JSON.stringify({ sub: 'someone-else', exp: Math.floor(Date.now() / 1000) + 3600, nonce: 'x' })).toString('base64url');
      const forged = [
        expired,
        `${otherSubject}.${signature}`,
        `${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`,
        createAccountSetupToken('another-secret', subject, { email }),
        '',
        'not-a-token',
      ];
      for (const candidate of forged) {
        const answer = await open(`/oidc/account/setup?token=${encodeURIComponent(candidate)}`);
        expect(answer.statusCode).toBe(400);
        expect(answer.body).toContain('Lien invalide');
        expect((await submit({ token: candidate, password: PASSWORD, confirmation: PASSWORD })).statusCode).toBe(400);
      }
      // The genuine link still works.
      expect((await submit({ token, password: PASSWORD, confirmation: PASSWORD })).statusCode).toBe(200);
    });

    it('refuses the link of a disabled account', async () => {
      const { subject, link } = await newAccount();
      await t.database.handle.db.updateTable('identity_accounts').set({ enabled: false }).where('subject', '=', subject).execute();
      expect((await open(link)).statusCode).toBe(400);
    });

    it('leaves the rest of /oidc to the provider', async () => {
      const discovery = await t.app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' });
      expect(discovery.statusCode).toBe(200);
      expect(discovery.json().issuer).toBe(t.issuer);
    });
  });
}

describe('account set-up tokens and links', () => {
  it('reads back the subject of a fresh token, and nothing of an expired one', () => {
    const token = createAccountSetupToken('secret', 'subject-1', { ttlSeconds: 60 });
    expect(readAccountSetupToken('secret', token)).toBe('subject-1');
    expect(readAccountSetupToken('secret', token, new Date(Date.now() + 61_000))).toBeNull();
    expect(readAccountSetupToken('other', token)).toBeNull();
  });

  it("points to the portal's sign-in page with an external identity provider", () => {
    let accountSetupUrl = configureAccountSetup({ publicOrigin: 'https://habilitations.example.fr', provider: 'b2c', secret: null });
    expect(accountSetupUrl('any-subject', 'personne@exemple.fr', new Date())).toBe('https://habilitations.example.fr/authentication/sign-in');
    accountSetupUrl = configureAccountSetup({ publicOrigin: 'https://localhost:8443', provider: 'local', secret: 's3cret' });
    const url = new URL(accountSetupUrl('subject-2', 'personne@exemple.fr', new Date()));
    expect(url.origin + url.pathname).toBe('https://localhost:8443/oidc/account/setup');
    expect(readAccountSetupToken('s3cret', url.searchParams.get('token')!)).toBe('subject-2');
    expect(() => configureAccountSetup({ publicOrigin: 'https://localhost:8443', provider: 'local', secret: null })).toThrow();
  });

  it('keeps a stable secret for a key file written before the set-up links, without rewriting it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-keys-'));
    try {
      const fresh = await loadSigningKeys(dir);
      expect(fresh.accountSetupSecret).toMatch(/^[\w-]{40,}$/);
      expect((await loadSigningKeys(dir)).accountSetupSecret).toBe(fresh.accountSetupSecret);
      const file = path.join(dir, 'oidc', 'signing-keys.json');
      const { accountSetupSecret: _dropped, ...old } = JSON.parse(fs.readFileSync(file, 'utf8'));
      fs.writeFileSync(file, JSON.stringify(old));
      const first = await loadSigningKeys(dir);
      expect(first.accountSetupSecret).toMatch(/^[\w-]{40,}$/);
      expect((await loadSigningKeys(dir)).accountSetupSecret).toBe(first.accountSetupSecret);
      expect(first.privateJwks).toEqual(fresh.privateJwks);
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(old);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
