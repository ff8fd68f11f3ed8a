import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCAL_CLIENT_ID, readConfig } from '../../server/config';

/** The settings a production start needs apart from the identity provider. */
const production = {
  NODE_ENV: 'production',
  PUBLIC_ORIGIN: 'https://habilitations.example.fr',
  TLS: 'off',
  MEMBER_AREA_URL: 'https://adherent.example.fr/',
  SUPPORT_HOURS: 'de 8 h 30 à 18 h',
  SUPPORT_PHONE: '01 99 00 00 42',
  SUPPORT_EMAIL: 'relation.adherents@example.fr',
  DATABASE_URL: 'postgres://portail@db/portail',
};

/** Microsoft Graph, the account directory b2c and entra need (tests/server/graph-directory-config.test.ts). */
const graph = {
  GRAPH_TENANT_ID: '00000000-0000-4000-8000-000000000001',
  GRAPH_CLIENT_ID: 'graph-client',
  GRAPH_CLIENT_SECRET: 'graph-secret',
  GRAPH_TENANT_DOMAIN: 'opcosante.onmicrosoft.com',
};

const b2c = {
  ...production,
  IDENTITY_PROVIDER: 'b2c',
  AUTH_CLIENT_ID: 'client-123',
  B2C_TENANT: 'opcosante',
  B2C_SIGN_IN_POLICY: 'B2C_1_signin',
  B2C_PASSWORD_RESET_POLICY: 'B2C_1_reset',
  ...graph,
};

const oidc = {
  ...production,
  IDENTITY_PROVIDER: 'oidc',
  AUTH_CLIENT_ID: 'client-456',
  OIDC_AUTHORITY: 'https://login.example.fr/realms/portail/',
};

describe('readConfig in development', () => {
  it('defaults to the local provider on https://localhost:8443 with a self-signed certificate', () => {
    const config = readConfig({});
    expect(config.production).toBe(false);
    expect(config.port).toBe(8443);
    expect(config.host).toBe('localhost');
    expect(config.publicOrigin).toBe('https://localhost:8443');
    expect(config.tls).toEqual({ mode: 'self-signed' });
    expect(config.databaseUrl).toBeNull();
    expect(config.dataDir).toBe(path.resolve('.data'));
    expect(config.publicSiteUrl).toBe('https://localhost:8443/');
    expect(config.cookieDomain).toBeNull();
    expect(config.memberAreaUrl).toBe('https://adherent.example.org/');
    expect(config.support).toEqual({ hours: 'de 9 h à 12 h 30 et de 13 h 30 à 17 h 30', phone: '01 99 00 12 34', email: 'relation.adherents@example.org' });
    expect(config.auth).toEqual({
      kind: 'local',
      clientId: LOCAL_CLIENT_ID,
      authority: 'https://localhost:8443/oidc',
      passwordResetAuthority: null,
      knownAuthorities: ['localhost:8443'],
      protocolMode: 'OIDC',
      issuer: 'https://localhost:8443/oidc',
      discoveryUrl: null,
    });
  });

  it('moves the origin and the local authority with PORT', () => {
    const config = readConfig({ PORT: '9443' });
    expect(config.port).toBe(9443);
    expect(config.publicOrigin).toBe('https://localhost:9443');
    expect(config.auth.authority).toBe('https://localhost:9443/oidc');
    expect(config.auth.knownAuthorities).toEqual(['localhost:9443']);
  });

  it.each(['http', '-1', '65536', '80.5'])("refuses PORT '%s'", (port) => {
    expect(() => readConfig({ PORT: port })).toThrowError(new Error(`PORT must be a port number (got '${port}')`));
  });

  it('takes PUBLIC_ORIGIN without its trailing slash', () => {
    const config = readConfig({ PUBLIC_ORIGIN: 'https://portail.test:8443/' });
    expect(config.publicOrigin).toBe('https://portail.test:8443');
    expect(config.auth.authority).toBe('https://portail.test:8443/oidc');
  });

  it('serves plain HTTP with TLS=off', () => {
    expect(readConfig({ TLS: 'off' }).tls).toEqual({ mode: 'off' });
  });

  it('reads the certificate files when TLS names neither off nor self-signed', () => {
    expect(readConfig({ TLS: 'files', TLS_CERT_FILE: '/etc/tls/cert.pem', TLS_KEY_FILE: '/etc/tls/key.pem' }).tls).toEqual({
      mode: 'files',
      certFile: '/etc/tls/cert.pem',
      keyFile: '/etc/tls/key.pem',
    });
    expect(() => readConfig({ TLS: 'files', TLS_KEY_FILE: '/etc/tls/key.pem' })).toThrowError(
      new Error('Missing required environment variable: TLS_CERT_FILE'),
    );
  });

  it('keeps COOKIE_DOMAIN and PUBLIC_SITE_URL when given', () => {
    const config = readConfig({ COOKIE_DOMAIN: '.example.fr', PUBLIC_SITE_URL: 'https://www.example.fr/' });
    expect(config.cookieDomain).toBe('.example.fr');
    expect(config.publicSiteUrl).toBe('https://www.example.fr/');
  });
});

describe('readConfig in production', () => {
  it('throws "Missing required environment variable: IDENTITY_PROVIDER" without a provider', () => {
    expect(() => readConfig(production)).toThrowError(new Error('Missing required environment variable: IDENTITY_PROVIDER'));
  });

  it('keeps the customer-relations settings when given', () => {
    expect(readConfig(b2c).support).toEqual({ hours: 'de 8 h 30 à 18 h', phone: '01 99 00 00 42', email: 'relation.adherents@example.fr' });
    expect(readConfig({ SUPPORT_HOURS: ' de 9 h à 17 h ', SUPPORT_PHONE: '04 99 00 00 01', SUPPORT_EMAIL: 'aide@example.fr' }).support).toEqual({
      hours: 'de 9 h à 17 h',
      phone: '04 99 00 00 01',
      email: 'aide@example.fr',
    });
  });

  it.each(['PUBLIC_ORIGIN', 'MEMBER_AREA_URL', 'SUPPORT_HOURS', 'SUPPORT_PHONE', 'SUPPORT_EMAIL'])('throws "Missing required environment variable: %s" without it', (name) => {
    const env: Record<string, string | undefined> = { ...b2c };
    delete env[name];
    expect(() => readConfig(env)).toThrowError(new Error(`Missing required environment variable: ${name}`));
  });

  it('needs certificate files unless TLS=off', () => {
    const env: Record<string, string | undefined> = { ...b2c, TLS: undefined };
    expect(() => readConfig(env)).toThrowError(new Error('Missing required environment variable: TLS_CERT_FILE'));
  });

  it('keeps sent e-mails 30 days unless OUTBOX_RETENTION_DAYS says otherwise', () => {
    expect(readConfig({}).outboxRetentionDays).toBe(30);
    expect(readConfig({ OUTBOX_RETENTION_DAYS: '7' }).outboxRetentionDays).toBe(7);
  });

  it('refuses an OUTBOX_RETENTION_DAYS that is not a whole number of days from 1', () => {
    for (const value of ['0', '-3', '1.5', 'trente']) {
      expect(() => readConfig({ OUTBOX_RETENTION_DAYS: value })).toThrow(`OUTBOX_RETENTION_DAYS must be a whole number of days, 1 or more (got '${value}')`);
    }
  });

  it('keeps journal entries 365 days unless AUDIT_RETENTION_DAYS says otherwise, and refuses anything but whole days from 1', () => {
    expect(readConfig({}).auditRetentionDays).toBe(365);
    expect(readConfig({ AUDIT_RETENTION_DAYS: '730' }).auditRetentionDays).toBe(730);
    for (const value of ['0', '-3', '1.5', 'un an']) {
      expect(() => readConfig({ AUDIT_RETENTION_DAYS: value })).toThrow(`AUDIT_RETENTION_DAYS must be a whole number of days, 1 or more (got '${value}')`);
    }
  });

  it('lets a request expire after 30 days and reminds after 7 and 3 days before expiry unless told otherwise, refusing reminders outside the period', () => {
    expect(readConfig({}).requests).toEqual({ expiryDays: 30, reminderPendingDays: 7, reminderBeforeExpiryDays: 3 });
    expect(readConfig({ INVITATION_EXPIRY_DAYS: '45', REMINDER_PENDING_DAYS: '10', REMINDER_BEFORE_EXPIRY_DAYS: '5' }).requests).toEqual({ expiryDays: 45, reminderPendingDays: 10, reminderBeforeExpiryDays: 5 });
    for (const value of ['0', '-3', '1.5', 'un mois', '3651']) {
      expect(() => readConfig({ INVITATION_EXPIRY_DAYS: value })).toThrow(`INVITATION_EXPIRY_DAYS must be a whole number of days, from 1 to 3650 (got '${value}')`);
    }
    expect(() => readConfig({ REMINDER_PENDING_DAYS: '0' })).toThrow("REMINDER_PENDING_DAYS must be a whole number of days, from 1 to 3650 (got '0')");
    expect(() => readConfig({ INVITATION_EXPIRY_DAYS: '3' })).toThrow('REMINDER_BEFORE_EXPIRY_DAYS (3) must be fewer days than INVITATION_EXPIRY_DAYS (3)');
  });

  it('warns a dormant account after 365 days, deactivates it 30 days later and deletes it 365 days after that unless told otherwise, 0 turning a step off', () => {
    expect(readConfig({}).dormancy).toEqual({ warnAfterDays: 365, deactivateAfterDays: 30, deleteAfterDays: 365 });
    expect(readConfig({ DORMANCY_WARN_AFTER_DAYS: '0', DORMANCY_DEACTIVATE_AFTER_DAYS: '15', DORMANCY_DELETE_AFTER_DAYS: '0' }).dormancy).toEqual({ warnAfterDays: 0, deactivateAfterDays: 15, deleteAfterDays: 0 });
    for (const value of ['-1', '1.5', 'un an', '3651']) {
      expect(() => readConfig({ DORMANCY_DELETE_AFTER_DAYS: value })).toThrow(`DORMANCY_DELETE_AFTER_DAYS must be a whole number of days, from 0 to 3650 (got '${value}')`);
    }
  });

  it("declares the accessibility 'non' conforme by default, the statement at the portal's own page and SUPPORT_EMAIL as its contact", () => {
    expect(readConfig(b2c).accessibility).toEqual({ compliance: 'non', statementUrl: null, contactEmail: 'relation.adherents@example.fr' });
  });

  it('takes partiellement or totalement, an https statement URL and a contact mailbox when given', () => {
    for (const compliance of ['non', 'partiellement', 'totalement']) expect(readConfig({ ...b2c, ACCESSIBILITY_COMPLIANCE: compliance }).accessibility.compliance).toBe(compliance);
    const given = readConfig({ ...b2c, ACCESSIBILITY_STATEMENT_URL: 'https://www.example.fr/accessibilite', ACCESSIBILITY_CONTACT_EMAIL: ' accessibilite@example.fr ' });
    expect(given.accessibility).toEqual({ compliance: 'non', statementUrl: 'https://www.example.fr/accessibilite', contactEmail: 'accessibilite@example.fr' });
  });

  it('refuses to start with another compliance level, saying partiellement and totalement need an RGAA audit', () => {
    for (const value of ['conforme', 'Non', 'partielle', 'oui']) {
      expect(() => readConfig({ ...b2c, ACCESSIBILITY_COMPLIANCE: value })).toThrow(
        `ACCESSIBILITY_COMPLIANCE must be non, partiellement or totalement (got '${value}'); partiellement and totalement may only be declared after an RGAA audit`,
      );
    }
  });

  it('refuses a statement URL that is not https and a contact that is not an e-mail address', () => {
    for (const value of ['http://www.example.fr/accessibilite', 'www.example.fr', 'javascript:alert(1)']) {
      expect(() => readConfig({ ...b2c, ACCESSIBILITY_STATEMENT_URL: value })).toThrow(`ACCESSIBILITY_STATEMENT_URL must be an https URL (got '${value}')`);
    }
    expect(() => readConfig({ ...b2c, ACCESSIBILITY_CONTACT_EMAIL: 'accessibilite' })).toThrow("ACCESSIBILITY_CONTACT_EMAIL must be an e-mail address (got 'accessibilite')");
  });

  it('listens on 0.0.0.0 by default', () => {
    const config = readConfig(b2c);
    expect(config.production).toBe(true);
    expect(config.host).toBe('0.0.0.0');
    expect(config.tls).toEqual({ mode: 'off' });
    expect(config.publicOrigin).toBe('https://habilitations.example.fr');
    expect(config.databaseUrl).toBe('postgres://portail@db/portail');
  });

  it('builds the B2C authorities on <tenant>.b2clogin.com in AAD mode', () => {
    expect(readConfig(b2c).auth).toEqual({
      kind: 'b2c',
      clientId: 'client-123',
      authority: 'https://opcosante.b2clogin.com/opcosante.onmicrosoft.com/B2C_1_signin',
      passwordResetAuthority: 'https://opcosante.b2clogin.com/opcosante.onmicrosoft.com/B2C_1_reset',
      knownAuthorities: ['opcosante.b2clogin.com'],
      protocolMode: 'AAD',
      issuer: null,
      discoveryUrl: 'https://opcosante.b2clogin.com/opcosante.onmicrosoft.com/B2C_1_signin/v2.0/.well-known/openid-configuration',
    });
  });

  it.each(['B2C_TENANT', 'B2C_SIGN_IN_POLICY', 'B2C_PASSWORD_RESET_POLICY', 'AUTH_CLIENT_ID'])(
    'throws "Missing required environment variable: %s" for B2C without it',
    (name) => {
      const env: Record<string, string | undefined> = { ...b2c };
      delete env[name];
      expect(() => readConfig(env)).toThrowError(new Error(`Missing required environment variable: ${name}`));
      expect(() => readConfig({ ...b2c, [name]: '  ' })).toThrowError(new Error(`Missing required environment variable: ${name}`));
    },
  );

  it('builds Entra External ID from its tenant subdomain: one authority, no reset policy, AAD mode', () => {
    const env = { ...production, PUBLIC_ORIGIN: 'https://portail.example.fr', MEMBER_AREA_URL: 'https://adherent.example.fr', IDENTITY_PROVIDER: 'entra', ENTRA_TENANT_SUBDOMAIN: 'opcosante', AUTH_CLIENT_ID: 'client-789', ...graph };
    expect(readConfig(env).auth).toEqual({
      kind: 'entra',
      clientId: 'client-789',
      authority: 'https://opcosante.ciamlogin.com/opcosante.onmicrosoft.com',
      passwordResetAuthority: null,
      knownAuthorities: ['opcosante.ciamlogin.com'],
      protocolMode: 'AAD',
      issuer: null,
      discoveryUrl: 'https://opcosante.ciamlogin.com/opcosante.onmicrosoft.com/v2.0/.well-known/openid-configuration',
    });
    expect(() => readConfig({ ...env, ENTRA_TENANT_SUBDOMAIN: undefined })).toThrowError(new Error('Missing required environment variable: ENTRA_TENANT_SUBDOMAIN'));
  });

  it('takes AUTH_ISSUER as the expected issuer', () => {
    expect(readConfig({ ...b2c, AUTH_ISSUER: 'https://opcosante.b2clogin.com/tid/v2.0/' }).auth.issuer).toBe('https://opcosante.b2clogin.com/tid/v2.0/');
  });

  it('builds an OIDC provider from OIDC_AUTHORITY in OIDC mode, without a reset authority', () => {
    expect(readConfig(oidc).auth).toEqual({
      kind: 'oidc',
      clientId: 'client-456',
      authority: 'https://login.example.fr/realms/portail',
      passwordResetAuthority: null,
      knownAuthorities: ['login.example.fr'],
      protocolMode: 'OIDC',
      issuer: null,
      discoveryUrl: 'https://login.example.fr/realms/portail/.well-known/openid-configuration',
    });
  });

  it.each(['OIDC_AUTHORITY', 'AUTH_CLIENT_ID'])('throws "Missing required environment variable: %s" for oidc without it', (name) => {
    const env: Record<string, string | undefined> = { ...oidc };
    delete env[name];
    expect(() => readConfig(env)).toThrowError(new Error(`Missing required environment variable: ${name}`));
  });

  it('refuses an unknown IDENTITY_PROVIDER', () => {
    expect(() => readConfig({ ...production, IDENTITY_PROVIDER: 'saml' })).toThrowError(new Error("IDENTITY_PROVIDER must be local, b2c, entra or oidc (got 'saml')"));
  });

  it('refuses the local provider unless ALLOW_LOCAL_IDENTITY_PROVIDER=true', () => {
    expect(() => readConfig({ ...production, IDENTITY_PROVIDER: 'local' })).toThrowError(/ALLOW_LOCAL_IDENTITY_PROVIDER=true/);
    expect(() => readConfig({ ...production, IDENTITY_PROVIDER: 'local', ALLOW_LOCAL_IDENTITY_PROVIDER: 'yes' })).toThrowError(
      /ALLOW_LOCAL_IDENTITY_PROVIDER=true/,
    );
    const config = readConfig({ ...production, IDENTITY_PROVIDER: 'local', ALLOW_LOCAL_IDENTITY_PROVIDER: 'true' });
    expect(config.auth.kind).toBe('local');
    expect(config.auth.authority).toBe('https://habilitations.example.fr/oidc');
    expect(config.auth.knownAuthorities).toEqual(['habilitations.example.fr']);
  });
});
