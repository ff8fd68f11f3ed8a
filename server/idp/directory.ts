import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The identity provider's accounts, reached through one interface: the local provider's table in
 * development and tests, Microsoft Graph for Azure AD B2C / Entra External ID in production.
 *
 * Calls take the transaction of the change they belong to. The local directory writes inside it
 * (all or nothing); a remote one cannot, so a caller makes the remote call last, just before
 * commit, and undoes it (`deleteAccount` after a failed commit of a creation) when needed.
 */
export interface IdentityDirectory {
  readonly kind: 'local' | 'graph';
  /** Creates an account for a new portal user; answers the subject its tokens will carry. */
  createAccount(trx: Transaction<Database>, input: { email: string; displayName: string }): Promise<{ subject: string }>;
  disableAccount(trx: Transaction<Database>, subject: string): Promise<void>;
  enableAccount(trx: Transaction<Database>, subject: string): Promise<void>;
  deleteAccount(trx: Transaction<Database> | Kysely<Database>, subject: string): Promise<void>;
}

export class IdentityDirectoryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IdentityDirectoryError';
  }
}

/** The local OpenID Connect provider's accounts (identity_accounts). A new account has no password until the person sets one. */
export class LocalIdentityDirectory implements IdentityDirectory {
  readonly kind = 'local' as const;

  async createAccount(trx: Transaction<Database>, input: { email: string; displayName: string }): Promise<{ subject: string }> {
    const existing = await trx.selectFrom('identity_accounts').select(['subject', 'enabled']).where((eb) => eb(eb.fn('lower', ['email']), '=', input.email.toLowerCase())).executeTakeFirst();
    if (existing) {
      // An identity without a portal account (a deleted user came back): reuse it, enabled.
      await trx.updateTable('identity_accounts').set({ enabled: true, display_name: input.displayName }).where('subject', '=', existing.subject).execute();
      return { subject: existing.subject };
    }
    const subject = randomUUID();
    await trx.insertInto('identity_accounts').values({ subject, email: input.email, display_name: input.displayName, password_hash: null, enabled: true }).execute();
    return { subject };
  }

  async disableAccount(trx: Transaction<Database>, subject: string): Promise<void> {
    await trx.updateTable('identity_accounts').set({ enabled: false }).where('subject', '=', subject).execute();
  }

  async enableAccount(trx: Transaction<Database>, subject: string): Promise<void> {
    await trx.updateTable('identity_accounts').set({ enabled: true }).where('subject', '=', subject).execute();
  }

  async deleteAccount(trx: Transaction<Database> | Kysely<Database>, subject: string): Promise<void> {
    await trx.deleteFrom('identity_accounts').where('subject', '=', subject).execute();
  }
}
