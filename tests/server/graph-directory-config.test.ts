import { describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config.ts';
import { GraphIdentityDirectory, identityDirectoryFor } from '../../server/identity/graph-directory.ts';
import { LocalIdentityDirectory } from '../../server/identity/directory.ts';

const production = {
  NODE_ENV: 'production',
  PUBLIC_ORIGIN: 'https://habilitations.example.fr',
  TLS: 'off',
  MEMBER_AREA_URL: 'https://adherent.example.fr/',
  SUPPORT_HOURS: 'de 8 h 30 à 18 h',
  SUPPORT_PHONE: '01 99 00 00 42',
  SUPPORT_EMAIL: 'relation.adherents@example.fr',
};
const graph = {
  GRAPH_TENANT_ID: '6f1c2b1e-0000-4000-8000-00000000c0de',
  GRAPH_CLIENT_ID: 'graph-client-id',
  GRAPH_CLIENT_SECRET: 'graph-secret',
  GRAPH_TENANT_DOMAIN: 'opcosante.onmicrosoft.com',
};
const b2c = { ...production, IDENTITY_PROVIDER: 'b2c', AUTH_CLIENT_ID: 'c', B2C_TENANT: 'opcosante', B2C_SIGN_IN_POLICY: 'B2C_1_si', B2C_PASSWORD_RESET_POLICY: 'B2C_1_pr', ...graph };
const entra = { ...production, IDENTITY_PROVIDER: 'entra', AUTH_CLIENT_ID: 'c', ENTRA_TENANT_SUBDOMAIN: 'opcosante', ...graph };
const oidc = { ...production, IDENTITY_PROVIDER: 'oidc', AUTH_CLIENT_ID: 'c', OIDC_AUTHORITY: 'https://login.example.fr/realms/portail' };

describe('Microsoft Graph configuration', () => {
  it('reads the four Graph settings with b2c and entra', () => {
    const expected = { tenantId: graph.GRAPH_TENANT_ID, clientId: 'graph-client-id', clientSecret: 'graph-secret', tenantDomain: 'opcosante.onmicrosoft.com' };
    expect(readConfig(b2c).graph).toEqual(expected);
    expect(readConfig(entra).graph).toEqual(expected);
  });

  it.each(Object.keys(graph))('stops a b2c or entra start without %s, naming it', (name) => {
    for (const env of [b2c, entra]) {
      const missing: Record<string, string | undefined> = { ...env };
      delete missing[name];
      expect(() => readConfig(missing)).toThrowError(new Error(`Missing required environment variable: ${name}`));
      expect(() => readConfig({ ...env, [name]: ' ' })).toThrowError(new Error(`Missing required environment variable: ${name}`));
    }
  });

  it('reads no Graph settings for the local provider, nor for oidc unless GRAPH_TENANT_ID is set', () => {
    expect(readConfig({}).graph).toBeNull();
    expect(readConfig(oidc).graph).toBeNull();
    expect(readConfig({ ...oidc, ...graph }).graph).toMatchObject({ tenantDomain: 'opcosante.onmicrosoft.com' });
    expect(() => readConfig({ ...oidc, GRAPH_TENANT_ID: 'x' })).toThrowError(new Error('Missing required environment variable: GRAPH_CLIENT_ID'));
  });
});

describe('identityDirectoryFor', () => {
  it('answers the local directory for the local provider and Graph for b2c and entra', () => {
    expect(identityDirectoryFor(readConfig({}))).toBeInstanceOf(LocalIdentityDirectory);
    expect(identityDirectoryFor(readConfig(b2c))).toBeInstanceOf(GraphIdentityDirectory);
    expect(identityDirectoryFor(readConfig(entra)).kind).toBe('graph');
  });

  it('stops an oidc start without a directory, naming the missing setting', () => {
    expect(() => identityDirectoryFor(readConfig(oidc))).toThrowError(/Missing required environment variable: GRAPH_TENANT_ID/);
  });
});
