// The links of pending e-mail changes (migration 0010): always inside the caller's transaction.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** A new link for the user's pending address; the previous ones are forgotten (a new request replaces them). */
export async function replaceEmailChangeToken(trx: Transaction<Database>, input: { userId: string; email: string; tokenHash: string; expiresAt: Date }): Promise<void> {
  await trx.deleteFrom('email_change_tokens').where('user_id', '=', input.userId).execute();
  await trx.insertInto('email_change_tokens').values({ token_hash: input.tokenHash, user_id: input.userId, email: input.email, expires_at: input.expiresAt }).execute();
}

/** The link of this token hash, still valid (unexpired), locked when asked; undefined otherwise. */
export async function findEmailChangeToken(trx: Transaction<Database>, tokenHash: string, options: { forUpdate?: boolean } = {}) {
  const query = trx
    .selectFrom('email_change_tokens')
    .select(['token_hash', 'user_id', 'email'])
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', new Date());
  return options.forUpdate ? query.forUpdate().executeTakeFirst() : query.executeTakeFirst();
}

export async function deleteEmailChangeTokens(trx: Transaction<Database>, userId: string): Promise<void> {
  await trx.deleteFrom('email_change_tokens').where('user_id', '=', userId).execute();
}
