// How the local provider ends an account's sessions and refresh tokens (LocalIdentityDirectory.revokeSessions,
// issue 19), kept apart and minimal: the account records when they were revoked (identity_accounts.sessions_revoked_at,
// migration 0011), and what began before then is refused, whatever store oidc-provider keeps it in:
// - a token (a refresh token at the token endpoint, an access token at userinfo): findAccount answers no account;
// - a browser session (a silent or interactive authorization): the login prompt is asked for again (prompt=none
//   then answers login_required).
// Times are whole seconds, as oidc-provider counts them; a sign-in right after a revocation is dated the second after
// it (signInSecondAfter), so that it is not refused with what came before.
import type { KoaContextWithOIDC } from 'oidc-provider';
import { interactionPolicy } from 'oidc-provider';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { findIdentityBySubject } from '../identity/local-accounts.ts';

const secondOf = (date: Date) => Math.floor(date.getTime() / 1000);

/** Whether a token began (its sign-in's time, else its issue) no later than the revocation. */
export function tokenRevoked(revokedAt: Date | null, token: object | undefined): boolean {
  if (!revokedAt || !token) return false;
  const { authTime, iat } = token as { authTime?: number; iat?: number };
  const began = authTime ?? iat;
  return typeof began === 'number' && began <= secondOf(revokedAt);
}

/** A new sign-in's time (seconds): now, or the second after a revocation made in this very second. */
export function signInSecondAfter(revokedAt: Date | null, now = Date.now()): number {
  const second = Math.floor(now / 1000);
  return revokedAt ? Math.max(second, secondOf(revokedAt) + 1) : second;
}

/** oidc-provider's default interaction policy, whose login prompt is also asked for a session begun before a revocation. */
export function policyEndingRevokedSessions(db: Kysely<Database>) {
  const { base, Check } = interactionPolicy;
  const policy = base();
  policy.get('login')!.checks.add(
    new Check('sessions_revoked', "The account's sessions were ended", 'login_required', async (ctx: KoaContextWithOIDC) => {
      const session = ctx.oidc.session;
      if (!session?.accountId || ctx.oidc.result?.login) return Check.NO_NEED_TO_PROMPT;
      const revokedAt = (await findIdentityBySubject(db, session.accountId))?.sessionsRevokedAt ?? null;
      return revokedAt && typeof session.loginTs === 'number' && session.loginTs <= secondOf(revokedAt) ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT;
    }),
  );
  return policy;
}
