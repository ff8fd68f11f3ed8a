import { describe, expect, it } from 'vitest';
import { loadAppConfig, parseAppConfig } from '../src/app-config';

function fullConfig() {
  return {
    apiBase: 'https://habilitations.example.fr',
    auth: {
      clientId: '5a1b2c3d-0000-4000-8000-000000000001',
      authority: 'https://opcosante.b2clogin.com/opcosante.onmicrosoft.com/B2C_1_signin',
      passwordResetAuthority: 'https://opcosante.b2clogin.com/opcosante.onmicrosoft.com/B2C_1_reset',
      knownAuthorities: ['opcosante.b2clogin.com'],
      protocolMode: 'AAD' as const,
    },
    memberAreaUrl: 'https://adherent.example.fr/',
    publicSiteUrl: 'https://www.example.fr/',
    support: { hours: 'de 8 h 30 à 18 h', phone: '01 99 00 00 42', email: 'relation.adherents@example.fr' },
    cookieDomain: '.example.fr',
    accessibility: { compliance: 'non', statementUrl: null as string | null, contactEmail: 'accessibilite@example.fr' },
  };
}

type Config = ReturnType<typeof fullConfig>;

describe('parseAppConfig', () => {
  it('parses a full configuration unchanged', () => {
    expect(parseAppConfig(fullConfig())).toEqual(fullConfig());
  });

  it('accepts null for the optional reset authority and cookie domain', () => {
    const raw = { ...fullConfig(), cookieDomain: null, auth: { ...fullConfig().auth, passwordResetAuthority: null, protocolMode: 'OIDC' as const } };
    expect(parseAppConfig(raw)).toEqual(raw);
  });

  const missing: { name: string; drop: (c: Config) => void }[] = [
    { name: 'PUBLIC_ORIGIN', drop: (c) => delete (c as Partial<Config>).apiBase },
    { name: 'AUTH_CLIENT_ID', drop: (c) => delete (c.auth as Partial<Config['auth']>).clientId },
    { name: 'B2C_SIGN_IN_POLICY', drop: (c) => delete (c.auth as Partial<Config['auth']>).authority },
    { name: 'MEMBER_AREA_URL', drop: (c) => delete (c as Partial<Config>).memberAreaUrl },
    { name: 'SUPPORT_HOURS', drop: (c) => delete (c.support as Partial<Config['support']>).hours },
    { name: 'SUPPORT_PHONE', drop: (c) => delete (c.support as Partial<Config['support']>).phone },
    { name: 'SUPPORT_EMAIL', drop: (c) => delete (c.support as Partial<Config['support']>).email },
  ];

  it.each(missing)('throws exactly "Missing required environment variable: $name" when its value is absent', ({ name, drop }) => {
    const raw = fullConfig();
    drop(raw);
    expect(() => parseAppConfig(raw)).toThrowError(new Error(`Missing required environment variable: ${name}`));
  });

  it.each([
    { name: 'PUBLIC_ORIGIN', set: (c: Config) => void (c.apiBase = '   ') },
    { name: 'AUTH_CLIENT_ID', set: (c: Config) => void (c.auth.clientId = '') },
    { name: 'B2C_SIGN_IN_POLICY', set: (c: Config) => void (c.auth.authority = ' ') },
    { name: 'MEMBER_AREA_URL', set: (c: Config) => void (c.memberAreaUrl = '') },
    { name: 'SUPPORT_PHONE', set: (c: Config) => void (c.support.phone = ' ') },
  ])('throws "Missing required environment variable: $name" when its value is blank', ({ name, set }) => {
    const raw = fullConfig();
    set(raw);
    expect(() => parseAppConfig(raw)).toThrowError(new Error(`Missing required environment variable: ${name}`));
  });

  it('names SUPPORT_HOURS first when the whole support block is absent', () => {
    const { support: _support, ...raw } = fullConfig();
    expect(() => parseAppConfig(raw)).toThrowError(new Error('Missing required environment variable: SUPPORT_HOURS'));
  });

  it('names the first missing value when the whole auth block is absent', () => {
    const { auth: _auth, ...raw } = fullConfig();
    expect(() => parseAppConfig(raw)).toThrowError(new Error('Missing required environment variable: AUTH_CLIENT_ID'));
  });

  it.each([null, undefined, {}])('throws "Missing required environment variable: PUBLIC_ORIGIN" for the empty configuration %o', (raw) => {
    expect(() => parseAppConfig(raw)).toThrowError(new Error('Missing required environment variable: PUBLIC_ORIGIN'));
  });

  it('refuses an unknown protocol mode', () => {
    const raw = { ...fullConfig(), auth: { ...fullConfig().auth, protocolMode: 'SAML' } };
    expect(() => parseAppConfig(raw)).toThrow();
  });

  it.each([
    { field: 'auth.protocolMode', set: (c: Config) => void ((c.auth as Record<string, unknown>).protocolMode = 'SAML') },
    { field: 'auth.knownAuthorities', set: (c: Config) => void ((c.auth as Record<string, unknown>).knownAuthorities = 'opcosante.b2clogin.com') },
    { field: 'auth.knownAuthorities.1', set: (c: Config) => void ((c.auth as Record<string, unknown>).knownAuthorities = ['a', 3]) },
    { field: 'publicSiteUrl', set: (c: Config) => void ((c as Record<string, unknown>).publicSiteUrl = undefined) },
    { field: 'cookieDomain', set: (c: Config) => void ((c as Record<string, unknown>).cookieDomain = 42) },
    { field: 'auth.passwordResetAuthority', set: (c: Config) => void ((c.auth as Record<string, unknown>).passwordResetAuthority = undefined) },
    { field: 'accessibility', set: (c: Config) => void ((c as Record<string, unknown>).accessibility = undefined) },
    { field: 'accessibility.compliance', set: (c: Config) => void ((c.accessibility as Record<string, unknown>).compliance = 'conforme') },
    { field: 'accessibility.statementUrl', set: (c: Config) => void ((c.accessibility as Record<string, unknown>).statementUrl = 42) },
    { field: 'accessibility.contactEmail', set: (c: Config) => void ((c.accessibility as Record<string, unknown>).contactEmail = null) },
  ])('names the wrong value: $field', ({ field, set }) => {
    const raw = fullConfig();
    set(raw);
    expect(() => parseAppConfig(raw)).toThrowError(new Error(`Invalid configuration: ${field}`));
  });

  it("takes the accessibility level, the organization's statement URL and the contact as the server declares them", () => {
    const raw = { ...fullConfig(), accessibility: { compliance: 'partiellement', statementUrl: 'https://www.example.fr/accessibilite', contactEmail: 'accessibilite@example.fr' } };
    expect(parseAppConfig(raw).accessibility).toEqual(raw.accessibility);
  });

  it('keeps only the known settings', () => {
    const raw = { ...fullConfig(), extra: 'x', auth: { ...fullConfig().auth, extra: 'y' } };
    expect(parseAppConfig(raw)).toEqual(fullConfig());
  });
});

describe('loadAppConfig', () => {
  /** A page whose configuration element holds `text` (null: no such element). */
  const pageWith = (text: string | null) => ({ getElementById: (id: string) => (id === 'portal-config' && text !== null ? ({ textContent: text } as HTMLElement) : null) });
  const noFetch = (async () => {
    throw new Error('no request expected');
  }) as typeof fetch;

  it('reads the configuration the server wrote into the page, without any request (issue 18)', async () => {
    await expect(loadAppConfig(noFetch, pageWith(JSON.stringify(fullConfig())))).resolves.toEqual(fullConfig());
  });

  it('judges the written configuration as the fetched one: a missing value stops the start', async () => {
    const { memberAreaUrl: _m, ...raw } = fullConfig();
    await expect(loadAppConfig(noFetch, pageWith(JSON.stringify(raw)))).rejects.toThrowError(new Error('Missing required environment variable: MEMBER_AREA_URL'));
  });

  it('reads /portal-config.json without the cache and parses it when the page carries none', async () => {
    const calls: [unknown, RequestInit | undefined][] = [];
    const stub = (async (input: unknown, init?: RequestInit) => {
      calls.push([input, init]);
      return new Response(JSON.stringify(fullConfig()), { headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    await expect(loadAppConfig(stub, pageWith(null))).resolves.toEqual(fullConfig());
    expect(calls).toEqual([['/portal-config.json', { cache: 'no-store' }]]);
  });

  it('stops with "Configuration unavailable (status)" when the server does not answer it', async () => {
    const stub = (async () => new Response('', { status: 500 })) as typeof fetch;
    await expect(loadAppConfig(stub, null)).rejects.toThrowError(new Error('Configuration unavailable (500)'));
  });

  it('stops with the missing variable message when the answer lacks a required value', async () => {
    const { memberAreaUrl: _m, ...raw } = fullConfig();
    const stub = (async () => new Response(JSON.stringify(raw))) as typeof fetch;
    await expect(loadAppConfig(stub, null)).rejects.toThrowError(new Error('Missing required environment variable: MEMBER_AREA_URL'));
  });
});
