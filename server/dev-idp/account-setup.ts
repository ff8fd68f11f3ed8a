// The local provider's account set-up pages: where a person whose account the portal created chooses a
// password, through the signed single-use link of server/identity/account-setup-links.ts.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ACCOUNT_SETUP_PATH, emailDigest, readAccountSetupClaims, SIGN_IN_PATH } from '../identity/account-setup-links.ts';
import { setIdentityPassword } from '../identity/local-accounts.ts';
import { accountSetupPage, messagePage } from './pages.ts';

export const PASSWORD_MIN_LENGTH = 12;
const PASSWORD_MAX_LENGTH = 200;

// ---------------------------------------------------------------------------------------------
// The pages, mounted by mountLocalProvider in its scope (which parses urlencoded forms).

const INVALID_LINK =
  "Ce lien n'est plus valable : il a expiré, a déjà servi, ou n'est pas correct. Si vous avez déjà choisi votre mot de passe, connectez-vous ; sinon, demandez un nouveau lien à votre administrateur.";

type SetupAccount = { subject: string; email: string };

/**
 * The account a token may still set up: signed, unexpired, enabled, without a password yet, still signing in
 * with the address the link was sent to (a link sent to an address the account no longer has is revoked), and
 * the latest link sent to its user (a link sent again revokes those before it: users.invitation_sent_at).
 */
async function accountForToken(db: Kysely<Database>, secret: string, token: string): Promise<SetupAccount | null> {
  const claims = readAccountSetupClaims(secret, token);
  if (!claims?.emailDigest) return null;
  const row = await db
    .selectFrom('identity_accounts')
    .leftJoin('users', 'users.auth_id', 'identity_accounts.subject')
    .select(['identity_accounts.subject', 'identity_accounts.email', 'users.invitation_sent_at'])
    .where('identity_accounts.subject', '=', claims.subject)
    .where('identity_accounts.enabled', '=', true)
    .where('identity_accounts.password_hash', 'is', null)
    .executeTakeFirst();
  if (!row || emailDigest(row.email) !== claims.emailDigest) return null;
  if (row.invitation_sent_at && claims.sentAt < new Date(row.invitation_sent_at).getTime()) return null;
  return { subject: row.subject, email: row.email };
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
        .where('email', '=', account.email)
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
