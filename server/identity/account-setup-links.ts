/**
 * Account set-up links: how a person whose account the portal created signs in the first time.
 *
 *   configureAccountSetup(config)(subject: string, email: string): string
 *
 * The link to put in the 'account.invitation' e-mail (accountInvitationMail in server/mail/templates.ts)
 * of an account whose identity-provider subject is `subject` (users.auth_id), sent to `email` at `sentAt`
 * (recorded as users.invitation_sent_at in the same transaction). It reads nothing from the database.
 * - Local provider: `<PUBLIC_ORIGIN>/oidc/account/setup?token=…`, where the person chooses a password.
 *   The token is signed (HMAC-SHA256, secret kept in the data folder with the provider's keys), expires
 *   after 7 days and is single-use: it is only good while the account has no password, and setting one
 *   consumes every link of that account. It is bound to the address it was sent to (a digest of it): once
 *   the account signs in with another address, the links sent to the old one no longer work. It carries the
 *   time it was sent: a link sent before the user's latest (users.invitation_sent_at) no longer works.
 * - Azure AD B2C, Entra External ID, any OIDC provider: the portal's sign-in page; the provider runs its
 *   own first sign-in (password set-up or reset flow).
 * buildApp makes it (configureAccountSetup) and hands it to the services that send the e-mail.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
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

/** The link of an account's set-up e-mail, for the subject of its identity-provider account, the address it is sent to, and when. */
export type AccountSetupUrl = (subject: string, email: string, sentAt: Date) => string;

export function configureAccountSetup(config: AccountSetupConfig): AccountSetupUrl {
  const { publicOrigin, provider, secret } = config;
  if (provider === 'local' && !secret) throw new Error('the local provider needs its account set-up secret');
  if (provider !== 'local') return () => `${publicOrigin}${SIGN_IN_PATH}`;
  return (subject, email, sentAt) => `${publicOrigin}${ACCOUNT_SETUP_PATH}?token=${createAccountSetupToken(secret!, subject, { email, now: sentAt })}`;
}

// ---------------------------------------------------------------------------------------------
// Tokens: base64url(JSON { sub, em, exp, nonce }) '.' base64url(HMAC-SHA256(secret, payload)).

interface TokenPayload {
  sub: string;
  /** Digest of the address the link was sent to (emailDigest); absent: a link bound to no address, never accepted. */
  em?: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** When it was sent, milliseconds since the epoch (absent in links made before migration 0016). */
  sent?: number;
  nonce: string;
}

export interface AccountSetupClaims {
  subject: string;
  /** emailDigest of the address the link was sent to; null: bound to none. */
  emailDigest: string | null;
  /** When it was sent (ms since the epoch); 0 for a link that does not say. */
  sentAt: number;
}

function signature(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(`account-setup.${payload}`).digest();
}

/** The address a link is bound to, as the token carries it: case-insensitive, and not readable in the link. */
export function emailDigest(email: string): string {
  return createHash('sha256').update(`account-setup-email.${email.trim().toLowerCase()}`).digest('base64url');
}

export function createAccountSetupToken(secret: string, subject: string, options: { now?: Date; ttlSeconds?: number; email?: string } = {}): string {
  const sent = (options.now ?? new Date()).getTime();
  const now = Math.floor(sent / 1000);
  const payload: TokenPayload = {
    sub: subject,
    ...(options.email !== undefined ? { em: emailDigest(options.email) } : {}),
    exp: now + (options.ttlSeconds ?? ACCOUNT_SETUP_TTL_SECONDS),
    sent,
    nonce: randomBytes(9).toString('base64url'),
  };
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${encoded}.${signature(secret, encoded).toString('base64url')}`;
}

/** The claims of a well-signed, unexpired token, else null. Whether it was used, or its address is still the account's, is the database's business. */
export function readAccountSetupClaims(secret: string, token: string, now = new Date()): AccountSetupClaims | null {
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
  return { subject: payload.sub, emailDigest: typeof payload.em === 'string' ? payload.em : null, sentAt: typeof payload.sent === 'number' ? payload.sent : 0 };
}

/** The subject of a well-signed, unexpired token, else null. */
export function readAccountSetupToken(secret: string, token: string, now = new Date()): string | null {
  return readAccountSetupClaims(secret, token, now)?.subject ?? null;
}
