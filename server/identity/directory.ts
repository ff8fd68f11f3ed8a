import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The identity provider's accounts, reached through one interface: the local provider's table in
 * development and tests, Microsoft Graph for Azure AD B2C / Entra External ID in production.
 *
 * Calls take the transaction of the change they belong to. The local directory writes inside it
 * (all or nothing); a remote one cannot, so a caller makes the remote call last, just before
 * commit, and undoes it when the commit fails: `deleteAccount` of an account the request created
 * (never of a reused one), `updateAccount` back to the previous values, `enableAccount` after a
 * `disableAccount` and the reverse. A permanent delete disables in the transaction and deletes after
 * the commit.
 */
export interface IdentityDirectory {
  readonly kind: 'local' | 'graph';
  /**
   * An account for a new portal user; answers the subject its tokens will carry, and whether an existing
   * identity signing in with that e-mail was reused (enabled, renamed) rather than created. An identity a
   * portal user holds is never reused: IdentityTakenError, before anything is changed. A reused identity
   * loses its credential: whoever knew its old password cannot sign in with it; the new user sets one
   * (local: the set-up link sent to the address; Graph: a new random password to change at first sign-in).
   */
  createAccount(trx: Transaction<Database>, input: { email: string; displayName: string }): Promise<CreatedAccount>;
  disableAccount(trx: Transaction<Database> | Kysely<Database>, subject: string): Promise<void>;
  enableAccount(trx: Transaction<Database> | Kysely<Database>, subject: string): Promise<void>;
  deleteAccount(trx: Transaction<Database> | Kysely<Database>, subject: string): Promise<void>;
  /** The e-mail the account signs in with, and its display name; IdentityTakenError when another account signs in with that e-mail. */
  updateAccount(trx: Transaction<Database> | Kysely<Database>, subject: string, input: { email: string; displayName: string }): Promise<void>;
  /**
   * Ends the account's sign-in sessions and refresh tokens at the provider (deactivation, deletion, a confirmed
   * e-mail change): the person signs in again to get new ones. Cannot be undone; a missing account counts as done.
   */
  revokeSessions(trx: Transaction<Database> | Kysely<Database>, subject: string): Promise<void>;
}

export interface CreatedAccount {
  subject: string;
  /** True: an identity that existed before this request (and that no portal user held) was reused. Never delete it to undo the request. */
  reused: boolean;
}

export class IdentityDirectoryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IdentityDirectoryError';
  }
}

/** Another identity account already signs in with this e-mail. */
export class IdentityTakenError extends IdentityDirectoryError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IdentityTakenError';
  }
}

/**
 * Before an identity found by e-mail is reused for a new portal user: IdentityTakenError when a portal
 * user holds it already (its e-mail there differs from the one in the portal), so that nothing is
 * changed on, nor later deleted from, somebody else's account.
 */
export async function refuseHeldIdentity(trx: Kysely<Database>, subject: string): Promise<void> {
  const holder = await trx.selectFrom('users').select('id').where('auth_id', '=', subject).executeTakeFirst();
  if (holder) throw new IdentityTakenError('Un utilisateur du portail détient déjà le compte de connexion de cette adresse email.');
}

/** Case-insensitive, as the unique index identity_accounts_email_lower_key. */
const accountsWithEmail = (trx: Kysely<Database>, email: string) =>
  trx.selectFrom('identity_accounts').select('subject').where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()));

/** The local OpenID Connect provider's accounts (identity_accounts). A new account has no password until the person sets one. */
export class LocalIdentityDirectory implements IdentityDirectory {
  readonly kind = 'local' as const;

  async createAccount(trx: Transaction<Database>, input: { email: string; displayName: string }): Promise<CreatedAccount> {
    const existing = await accountsWithEmail(trx, input.email).executeTakeFirst();
    if (existing) {
      // An identity without a portal account (a deleted user came back): reuse it, enabled, its password forgotten
      // and its former sessions ended.
      await refuseHeldIdentity(trx, existing.subject);
      await trx.updateTable('identity_accounts').set({ enabled: true, display_name: input.displayName, password_hash: null }).where('subject', '=', existing.subject).execute();
      await this.revokeSessions(trx, existing.subject);
      return { subject: existing.subject, reused: true };
    }
    const subject = randomUUID();
    await trx.insertInto('identity_accounts').values({ subject, email: input.email, display_name: input.displayName, password_hash: null, enabled: true }).execute();
    return { subject, reused: false };
  }

  async disableAccount(trx: Transaction<Database> | Kysely<Database>, subject: string): Promise<void> {
    await trx.updateTable('identity_accounts').set({ enabled: false }).where('subject', '=', subject).execute();
  }

  async enableAccount(trx: Transaction<Database> | Kysely<Database>, subject: string): Promise<void> {
    await trx.updateTable('identity_accounts').set({ enabled: true }).where('subject', '=', subject).execute();
  }

  async deleteAccount(trx: Transaction<Database> | Kysely<Database>, subject: string): Promise<void> {
    await trx.deleteFrom('identity_accounts').where('subject', '=', subject).execute();
  }

  /**
   * Minimal and kept apart on purpose: a moment recorded on the account, before which the local provider's
   * findAccount refuses a session or a refresh token (server/dev-idp/local-provider.ts, sessionRevoked), so that
   * it holds whatever store oidc-provider keeps them in. In the caller's transaction: undone with it.
   */
  async revokeSessions(trx: Transaction<Database> | Kysely<Database>, subject: string): Promise<void> {
    await trx.updateTable('identity_accounts').set({ sessions_revoked_at: sql<Date>`now()` }).where('subject', '=', subject).execute();
  }

  /** A concurrent change taking the same e-mail meets the unique index identity_accounts_email_lower_key instead. */
  async updateAccount(trx: Transaction<Database> | Kysely<Database>, subject: string, input: { email: string; displayName: string }): Promise<void> {
    const other = await accountsWithEmail(trx, input.email).where('subject', '<>', subject).executeTakeFirst();
    if (other) throw new IdentityTakenError('Un autre compte de connexion utilise déjà cette adresse email.');
    await trx.updateTable('identity_accounts').set({ email: input.email, display_name: input.displayName }).where('subject', '=', subject).execute();
  }
}

/**
 * These accounts enabled, or disabled with their sessions ended, as enableAccount, or disableAccount then
 * revokeSessions, do for one (a deactivation, a reactivation of many users in one transaction). The local directory
 * in one statement, inside the transaction; another account by account, `changed` told of each account it changed
 * so that the caller puts it back if the commit fails.
 */
export async function setAccountsEnabled(
  directory: IdentityDirectory,
  trx: Transaction<Database>,
  subjects: readonly string[],
  enabled: boolean,
  changed: (subject: string) => void,
): Promise<void> {
  if (subjects.length === 0) return;
  if (directory instanceof LocalIdentityDirectory) {
    await trx
      .updateTable('identity_accounts')
      .set(enabled ? { enabled: true } : { enabled: false, sessions_revoked_at: sql<Date>`now()` })
      .where('subject', 'in', [...subjects])
      .execute();
    return;
  }
  for (const subject of subjects) {
    if (enabled) {
      await directory.enableAccount(trx, subject);
      changed(subject);
    } else {
      await directory.disableAccount(trx, subject);
      changed(subject);
      await directory.revokeSessions(trx, subject);
    }
  }
}
