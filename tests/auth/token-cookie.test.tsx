import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  TOKEN_COOKIE,
  TOKEN_COOKIE_MAX_AGE_SECONDS,
  decodeTokenClaims,
  expireTokenCookie,
  isTokenUnexpired,
  readTokenCookie,
  writeTokenCookie,
} from '../../src/auth/token-cookie';

/** An unsigned JWT: the browser only reads it, the server verifies it. */
function jwt(claims: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
}

/** The attributes of one Set-Cookie-like string, names lower-cased. */
function attributes(written: string): { name: string; value: string; attrs: Map<string, string | true> } {
  const [pair, ...rest] = written.split(';').map((s) => s.trim());
  const [name, ...value] = pair!.split('=');
  const attrs = new Map<string, string | true>();
  for (const attr of rest) {
    const [key, ...v] = attr.split('=');
    attrs.set(key!.toLowerCase(), v.length ? v.join('=') : true);
  }
  return { name: name!, value: value.join('='), attrs };
}

describe('readTokenCookie', () => {
  it('finds portail.accessToken among other cookies', () => {
    expect(readTokenCookie('theme=dark; portail.accessToken=abc.def.ghi; lang=fr')).toBe('abc.def.ghi');
  });

  it('decodes a URI-encoded value and keeps the = signs inside it', () => {
    expect(readTokenCookie(`a=1;${TOKEN_COOKIE}=${encodeURIComponent('x.y=.z==')}`)).toBe('x.y=.z==');
  });

  it('is null when the cookie is missing, empty, or only a look-alike name is present', () => {
    expect(readTokenCookie('')).toBeNull();
    expect(readTokenCookie('theme=dark; lang=fr')).toBeNull();
    expect(readTokenCookie('portail.accessToken=; lang=fr')).toBeNull();
    expect(readTokenCookie('xportail.accessToken=abc; portail.accessTokenx=def')).toBeNull();
  });

  it('reads document.cookie when given no string', () => {
    document.cookie = 'theme=dark; Path=/';
    document.cookie = `${TOKEN_COOKIE}=from-document; Path=/`;
    try {
      expect(readTokenCookie()).toBe('from-document');
    } finally {
      document.cookie = `${TOKEN_COOKIE}=; Max-Age=0; Path=/`;
      document.cookie = 'theme=; Max-Age=0; Path=/';
    }
  });
});

describe('decodeTokenClaims', () => {
  // Both claim sets hold accented UTF-8 names; their payloads use the two base64url-only characters and lack padding.
  it.each([
    { sub: 'u-4', alphabet: /-/ },
    { sub: 'u-42', alphabet: /_/ },
  ])('decodes a base64url payload holding accented UTF-8 names (sub $sub)', ({ sub, alphabet }) => {
    const claims = { sub, name: 'Hélène O’Connor-Louÿs', email: 'helene@clinique.test', exp: 1_900_000_000 };
    const token = jwt(claims);
    const payload = token.split('.')[1]!;
    expect(payload).toMatch(alphabet);
    expect(payload.length % 4).not.toBe(0);
    expect(decodeTokenClaims(token)).toEqual(claims);
  });

  it('is null for a token without a payload, a payload that is not base64 JSON, or JSON that is not an object', () => {
    expect(decodeTokenClaims('')).toBeNull();
    expect(decodeTokenClaims('only-one-part')).toBeNull();
    expect(decodeTokenClaims('head..sig')).toBeNull();
    expect(decodeTokenClaims('head.%%%not-base64%%%.sig')).toBeNull();
    expect(decodeTokenClaims(`head.${Buffer.from('{"sub":').toString('base64url')}.sig`)).toBeNull();
    expect(decodeTokenClaims(`head.${Buffer.from('42').toString('base64url')}.sig`)).toBeNull();
    expect(decodeTokenClaims(`head.${Buffer.from('null').toString('base64url')}.sig`)).toBeNull();
  });
});

describe('isTokenUnexpired', () => {
  const now = Date.UTC(2026, 0, 15, 12, 0, 0);
  const nowSeconds = now / 1000;

  it('is true while exp is in the future', () => {
    expect(isTokenUnexpired(jwt({ sub: 'u', exp: nowSeconds + 60 }), now)).toBe(true);
  });

  it('is false once exp is reached or past', () => {
    expect(isTokenUnexpired(jwt({ sub: 'u', exp: nowSeconds }), now)).toBe(false);
    expect(isTokenUnexpired(jwt({ sub: 'u', exp: nowSeconds - 1 }), now)).toBe(false);
  });

  it('is false for no token, a token without exp, a non-numeric exp, or garbage', () => {
    expect(isTokenUnexpired(null, now)).toBe(false);
    expect(isTokenUnexpired('', now)).toBe(false);
    expect(isTokenUnexpired(jwt({ sub: 'u' }), now)).toBe(false);
    expect(isTokenUnexpired(jwt({ sub: 'u', exp: String(nowSeconds + 60) }), now)).toBe(false);
    expect(isTokenUnexpired('not a token at all', now)).toBe(false);
    expect(isTokenUnexpired('a.!!!.c', now)).toBe(false);
  });

  it('uses the current time by default', () => {
    const inOneHour = Math.floor(Date.now() / 1000) + 3600;
    expect(isTokenUnexpired(jwt({ exp: inOneHour }))).toBe(true);
    expect(isTokenUnexpired(jwt({ exp: inOneHour - 7200 }))).toBe(false);
  });
});

describe('writing and expiring the cookie (spec §9)', () => {
  let writes: string[];

  beforeEach(() => {
    writes = [];
    vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      writes.push(value);
    });
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes the token for 12 hours on the path /, Secure and SameSite=Lax, without a Domain when none is configured', () => {
    writeTokenCookie('abc.def.ghi', null);
    expect(writes).toHaveLength(1);
    const { name, value, attrs } = attributes(writes[0]!);
    expect(name).toBe('portail.accessToken');
    expect(decodeURIComponent(value)).toBe('abc.def.ghi');
    expect(TOKEN_COOKIE_MAX_AGE_SECONDS).toBe(43200);
    expect(attrs.get('max-age')).toBe('43200');
    expect(attrs.get('path')).toBe('/');
    expect(attrs.get('secure')).toBe(true);
    expect(attrs.get('samesite')).toBe('Lax');
    expect(attrs.has('domain')).toBe(false);
  });

  it('adds the configured parent domain', () => {
    writeTokenCookie('abc.def.ghi', '.portail.example.fr');
    const { attrs } = attributes(writes[0]!);
    expect(attrs.get('domain')).toBe('.portail.example.fr');
    expect(attrs.get('max-age')).toBe('43200');
    expect(attrs.get('secure')).toBe(true);
    expect(attrs.get('samesite')).toBe('Lax');
  });

  it('encodes a value that would break the cookie syntax', () => {
    writeTokenCookie('a;b c', null);
    const { value } = attributes(writes[0]!);
    expect(value).not.toMatch(/[; ]/);
    expect(readTokenCookie(`${TOKEN_COOKIE}=${value}`)).toBe('a;b c');
  });

  it('expires the cookie for the path only when no domain is configured', () => {
    expireTokenCookie(null);
    expect(writes).toHaveLength(1);
    const { name, value, attrs } = attributes(writes[0]!);
    expect(name).toBe('portail.accessToken');
    expect(value).toBe('');
    expect(attrs.get('max-age')).toBe('0');
    expect(attrs.get('path')).toBe('/');
    expect(attrs.has('domain')).toBe(false);
  });

  it('expires the cookie for the path and for the parent domain when one is configured', () => {
    expireTokenCookie('.portail.example.fr');
    expect(writes).toHaveLength(2);
    const parsed = writes.map(attributes);
    for (const { name, value, attrs } of parsed) {
      expect(name).toBe('portail.accessToken');
      expect(value).toBe('');
      expect(attrs.get('max-age')).toBe('0');
      expect(attrs.get('path')).toBe('/');
    }
    expect(parsed.map((p) => p.attrs.get('domain') ?? null)).toEqual([null, '.portail.example.fr']);
  });
});
