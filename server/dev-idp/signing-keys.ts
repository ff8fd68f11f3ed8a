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

interface StoredKeys {
  privateJwks: { keys: JWK[] };
  cookieKeys: string[];
  accountSetupSecret?: string;
}

/**
 * The local provider's signing key and cookie secrets, kept in the data folder:
 * a new key on every restart would invalidate every token already handed out.
 * Nodes sharing the folder share the keys, so that a token signed by one is verified by all. Nodes starting
 * together on an empty folder agree on one: each writes its new keys to a file of its own, and only the first
 * to link it under the shared name wins (a link never replaces a file); the others read the winner's.
 */
export async function loadSigningKeys(dataDir: string): Promise<SigningKeys> {
  const file = path.join(dataDir, 'oidc', 'signing-keys.json');
  const stored = (await readStoredKeys(file)) ?? (await createStoredKeys(file));
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

async function readStoredKeys(file: string): Promise<StoredKeys | null> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function createStoredKeys(file: string): Promise<StoredKeys> {
  const randomSecret = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = `portail-${Date.now().toString(36)}`;
  const fresh: StoredKeys = {
    privateJwks: { keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] },
    cookieKeys: [randomSecret(), randomSecret()],
    accountSetupSecret: randomSecret(),
  };
  await fs.mkdir(path.dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}.${randomSecret()}.tmp`;
  await fs.writeFile(draft, JSON.stringify(fresh), { mode: 0o600 });
  try {
    await fs.link(draft, file);
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } finally {
    await fs.rm(draft, { force: true });
  }
}
