import { describe, expect, it } from 'vitest';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createTokenVerifier, InvalidTokenError } from '../../server/identity/token-verifier.ts';

async function setup(subjectClaim?: 'sub' | 'oid') {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' };
  const verify = createTokenVerifier({ issuer: 'https://idp.test', audience: 'app', keys: createLocalJWKSet({ keys: [jwk] }), subjectClaim });
  const now = Math.floor(Date.now() / 1000);
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT({ iss: 'https://idp.test', aud: 'app', iat: now, exp: now + 600, ...claims }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(privateKey);
  return { verify, sign };
}

describe('bearer token verification', () => {
  it("names the account by 'sub' by default, and reads the email from email or B2C's emails", async () => {
    const { verify, sign } = await setup();
    expect(await verify(await sign({ sub: 'abc', email: 'a@b.fr' }))).toMatchObject({ subject: 'abc', email: 'a@b.fr' });
    expect(await verify(await sign({ sub: 'abc', emails: ['c@d.fr'] }))).toMatchObject({ email: 'c@d.fr' });
  });

  it("names the account by 'oid' for Entra External ID, whose sub differs per application", async () => {
    const { verify, sign } = await setup('oid');
    expect((await verify(await sign({ sub: 'pairwise-xyz', oid: 'object-id-1' }))).subject).toBe('object-id-1');
    await expect(verify(await sign({ sub: 'pairwise-xyz' }))).rejects.toBeInstanceOf(InvalidTokenError);
  });
});

describe('verified tokens kept for a minute', () => {
  it('checks the signature of a token once, then again for another token', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const keySet = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' }] });
    let lookups = 0;
    const verify = createTokenVerifier({ issuer: 'https://idp.test', audience: 'app', keys: (header, token) => ((lookups += 1), keySet(header, token)) });
    const now = Math.floor(Date.now() / 1000);
    const sign = (sub: string) => new SignJWT({ iss: 'https://idp.test', aud: 'app', sub, iat: now, exp: now + 600 }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(privateKey);
    const token = await sign('abc');
    expect((await verify(token)).subject).toBe('abc');
    expect((await verify(token)).subject).toBe('abc');
    expect(lookups).toBe(1);
    await verify(await sign('def'));
    expect(lookups).toBe(2);
    await expect(verify(`${token.slice(0, -2)}xx`)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('never answers a kept token past its expiry', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' };
    let clockMs = Date.now();
    const verify = createTokenVerifier({ issuer: 'https://idp.test', audience: 'app', keys: createLocalJWKSet({ keys: [jwk] }), clockToleranceSeconds: 0, clock: () => clockMs });
    const now = Math.floor(clockMs / 1000);
    const token = await new SignJWT({ iss: 'https://idp.test', aud: 'app', sub: 'abc', iat: now, exp: now + 2 }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(privateKey);
    await verify(token);
    clockMs = (now + 2) * 1000 + 50;
    await expect(verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
  });
});
