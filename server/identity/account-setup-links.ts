/**
 * Account set-up links: how a person whose account the portal created signs in the first time.
 *
 *   configureAccountSetup(config)(subject: string): string
 *
 * The link to put in the 'account.invitation' e-mail (accountInvitationMail in server/mail/templates.ts)
 * of a new account whose identity-provider subject is `subject` (users.auth_id). Call it in the
 * transaction that created the account; it reads nothing from the database.
 * - Local provider: `<PUBLIC_ORIGIN>/oidc/account/setup?token=…`, where the person chooses a password.
 *   The token is signed (HMAC-SHA256, secret kept in the data folder with the provider's keys), expires
 *   after 7 days and is single-use: it is only good while the account has no password, and setting one
 *   consumes every link of that account.
 * - Azure AD B2C, Entra External ID, any OIDC provider: the portal's sign-in page; the provider runs its
 *   own first sign-in (password set-up or reset flow).
 * buildApp makes it (configureAccountSetup) and hands it to the services that send the e-mail.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IdentityProviderKind } from '../config.ts';

export const ACCOUNT_SETUP_PATH = '/oidc/account/setup';
export const ACCOUNT_SETUP_TTL_SECONDS = 7 * 24 * 3600;
export const SIGN_IN_PATH = '/authentication/sign-in';

export interface AccountSetupConfig {
  publicOrigin: string;
  provider: IdentityProviderKind;
  /** The local provider's HMAC secret (SigningKeys.accountSetupSecret); null with another provider. */
  secret: string | null;
}

/** The link of a new account's set-up e-mail, for the subject of its identity-provider account. */
export type AccountSetupUrl = (subject: string) => string;

export function configureAccountSetup(config: AccountSetupConfig): AccountSetupUrl {
  const { publicOrigin, provider, secret } = config;
  if (provider === 'local' && !secret) throw new Error('the local provider needs its account set-up secret');
  if (provider !== 'local') return () => `${publicOrigin}${SIGN_IN_PATH}`;
  return (subject) => `${publicOrigin}${ACCOUNT_SETUP_PATH}?token=${createAccountSetupToken(secret!, subject)}`;
}

// ---------------------------------------------------------------------------------------------
// Tokens: base64url(JSON { sub, exp, nonce }) '.' base64url(HMAC-SHA256(secret, payload)).

interface TokenPayload {
  sub: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  nonce: string;
}

function signature(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(`account-setup.${payload}`).digest();
}

export function createAccountSetupToken(secret: string, subject: string, options: { now?: Date; ttlSeconds?: number } = {}): string {
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const payload: TokenPayload = { sub: subject, exp: now + (options.ttlSeconds ?? ACCOUNT_SETUP_TTL_SECONDS), nonce: randomBytes(9).toString('base64url') };
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${encoded}.${signature(secret, encoded).toString('base64url')}`;
}

/** The subject of a well-signed, unexpired token, else null. Whether it was used is the database's business. */
export function readAccountSetupToken(secret: string, token: string, now = new Date()): string | null {
  const match = /^([A-Za-z0-9_-]{1,1000})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, encoded, mac] = match as unknown as [string, string, string];
  const expected = signature(secret, encoded);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let payload: Partial<TokenPayload>;
  try {
    payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Partial<TokenPayload>;
  } catch {
    return null;
  }
  if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
  if (payload.exp * 1000 <= now.getTime()) return null;
  return payload.sub;
}
