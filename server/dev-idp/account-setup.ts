/**
 * Account set-up links: how a person whose account the portal created signs in the first time.
 *
 *   accountSetupUrl(subject: string): string
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
 * buildApp configures it (configureAccountSetup); calling it before throws.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { IdentityProviderKind } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { setIdentityPassword } from '../identity/local-accounts.ts';
import { accountSetupPage, messagePage } from './pages.ts';

export const ACCOUNT_SETUP_PATH = '/oidc/account/setup';
export const ACCOUNT_SETUP_TTL_SECONDS = 7 * 24 * 3600;
export const PASSWORD_MIN_LENGTH = 12;
const PASSWORD_MAX_LENGTH = 200;
const SIGN_IN_PATH = '/authentication/sign-in';

export interface AccountSetupConfig {
  publicOrigin: string;
  provider: IdentityProviderKind;
  /** The local provider's HMAC secret (SigningKeys.accountSetupSecret); null with another provider. */
  secret: string | null;
}

let current: AccountSetupConfig | null = null;

export function configureAccountSetup(config: AccountSetupConfig): void {
  if (config.provider === 'local' && !config.secret) throw new Error('the local provider needs its account set-up secret');
  current = config;
}

export function accountSetupUrl(subject: string): string {
  if (!current) throw new Error('accountSetupUrl: configureAccountSetup was not called (buildApp does it)');
  if (current.provider !== 'local') return `${current.publicOrigin}${SIGN_IN_PATH}`;
  return `${current.publicOrigin}${ACCOUNT_SETUP_PATH}?token=${createAccountSetupToken(current.secret!, subject)}`;
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

// ---------------------------------------------------------------------------------------------
// The pages, mounted by mountLocalProvider in its scope (which parses urlencoded forms).

const INVALID_LINK =
  "Ce lien n'est plus valable : il a expiré, a déjà servi, ou n'est pas correct. Si vous avez déjà choisi votre mot de passe, connectez-vous ; sinon, demandez un nouveau lien à votre administrateur.";

type SetupAccount = { subject: string; email: string };

/** The account a token may still set up: signed, unexpired, enabled and without a password yet. */
async function accountForToken(db: Kysely<Database>, secret: string, token: string): Promise<SetupAccount | null> {
  const subject = readAccountSetupToken(secret, token);
  if (!subject) return null;
  const row = await db
    .selectFrom('identity_accounts')
    .select(['subject', 'email'])
    .where('subject', '=', subject)
    .where('enabled', '=', true)
    .where('password_hash', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}

function passwordError(password: string, confirmation: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Le mot de passe doit contenir au plus ${PASSWORD_MAX_LENGTH} caractères.`;
  if (password !== confirmation) return 'Les deux mots de passe ne correspondent pas.';
  return null;
}

export function registerAccountSetupRoutes(scope: FastifyInstance, { db, secret }: { db: Kysely<Database>; secret: string }): void {
  const invalid = () => messagePage('Lien invalide', INVALID_LINK, SIGN_IN_PATH);

  scope.get<{ Querystring: { token?: string } }>(ACCOUNT_SETUP_PATH, async (request, reply) => {
    reply.type('text/html').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    const account = await accountForToken(db, secret, token);
    if (!account) return reply.code(400).send(invalid());
    return reply.send(accountSetupPage({ token, email: account.email, error: null }));
  });

  scope.post<{ Body: Record<string, string> }>(ACCOUNT_SETUP_PATH, async (request, reply) => {
    reply.type('text/html').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const token = String(request.body?.token ?? '');
    const password = String(request.body?.password ?? '');
    const confirmation = String(request.body?.confirmation ?? '');
    const account = await accountForToken(db, secret, token);
    if (!account) return reply.code(400).send(invalid());
    const error = passwordError(password, confirmation);
    if (error) return reply.code(400).send(accountSetupPage({ token, email: account.email, error }));
    // Single use: the row is locked, and only an account still without a password is set up.
    const done = await db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('identity_accounts')
        .select('subject')
        .where('subject', '=', account.subject)
        .where('enabled', '=', true)
        .where('password_hash', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      return row ? setIdentityPassword(trx, account.subject, password) : false;
    });
    if (!done) return reply.code(400).send(invalid());
    request.log.info({ subject: account.subject }, 'password chosen through an account set-up link');
    return reply.send(
      messagePage('Mot de passe enregistré', `Votre mot de passe est enregistré. Vous pouvez maintenant vous connecter avec ${account.email}.`, SIGN_IN_PATH, 'Se connecter'),
    );
  });
}
