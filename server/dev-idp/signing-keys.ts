import { createHmac } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

export interface SigningKeys {
  /** Private JWKS handed to the local provider. */
  privateJwks: { keys: JWK[] };
  /** Public JWKS the API checks bearer tokens with. */
  publicJwks: { keys: JWK[] };
  /** Secrets signing the provider's cookies. */
  cookieKeys: string[];
  /** HMAC secret of the account set-up links (server/dev-idp/account-setup.ts). */
  accountSetupSecret: string;
}

/**
 * The local provider's signing key and cookie secrets, kept in the data folder:
 * a new key on every restart would invalidate every token already handed out.
 */
export async function loadSigningKeys(dataDir: string): Promise<SigningKeys> {
  const file = path.join(dataDir, 'oidc', 'signing-keys.json');
  let stored: { privateJwks: { keys: JWK[] }; cookieKeys: string[]; accountSetupSecret?: string };
  const randomSecret = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  try {
    stored = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = await exportJWK(privateKey);
    const kid = `portail-${Date.now().toString(36)}`;
    stored = {
      privateJwks: { keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] },
      cookieKeys: [crypto.getRandomValues(new Uint8Array(32)), crypto.getRandomValues(new Uint8Array(32))].map((b) => Buffer.from(b).toString('base64url')),
      accountSetupSecret: randomSecret(),
    };
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify(stored), { mode: 0o600 });
  }
  const publicJwks = {
    keys: stored.privateJwks.keys.map(({ kty, n, e, kid, alg, use }) => ({ kty, n, e, kid, alg, use })),
  };
  // A file written before the account set-up links has no secret for them: derive one from the private key,
  // the same in every process sharing the folder, without rewriting the file.
  const accountSetupSecret =
    stored.accountSetupSecret ??
    createHmac('sha256', String(stored.privateJwks.keys[0]?.d ?? '')).update('portail account-setup secret').digest('base64url');
  return { privateJwks: stored.privateJwks, publicJwks, cookieKeys: stored.cookieKeys, accountSetupSecret };
}
