// The local provider's storage in the database (migration 0007, oidc_payloads): oidc-provider's Adapter interface,
// one row per model and id. Sessions, interactions, codes, tokens and grants are thus every node's, so that a
// sign-in begun on one node finishes on another, and they survive a restart. It replaces oidc-provider's
// development in-memory adapter (and its warning at every start).
import { sql, type Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/schema.ts';

const NUL = String.fromCharCode(0);

export interface OidcAdapterOptions {
  /** The time in milliseconds: the node's clock, as oidc-provider's own checks of expiry use it. */
  now?: () => number;
}

/** The adapter factory for oidc-provider's `adapter` setting: one adapter per model name. */
export function createOidcAdapter(db: Kysely<Database>, options: OidcAdapterOptions = {}): (model: string) => Adapter {
  const now = options.now ?? (() => Date.now());
  const live = () => sql<boolean>`(expires_at is null or expires_at > ${new Date(now())})`;
  // PostgreSQL refuses NUL in text and jsonb: nothing stored holds one (see upsert), so an id holding one finds nothing.
  const impossible = (value: string) => value.includes(NUL);

  return (model) => {
    const findWhere = async (column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> => {
      if (impossible(value)) return undefined;
      const row = await db
        .selectFrom('oidc_payloads')
        .select(['payload', 'consumed_at'])
        .where('model', '=', model)
        .where(column, '=', value)
        .where(live())
        .executeTakeFirst();
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumed_at ? { ...payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) } : payload;
    };

    return {
      async upsert(id, payload, expiresIn) {
        const values = {
          // NUL characters (a hostile authorization request's state or login_hint) mean nothing: dropped, as the sign-in form does.
          payload: JSON.stringify(payload, (_key, value: unknown) => (typeof value === 'string' ? value.replaceAll(NUL, '') : value)),
          grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
          user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
          uid: typeof payload.uid === 'string' ? payload.uid : null,
          expires_at: typeof expiresIn === 'number' ? new Date(now() + expiresIn * 1000) : null,
          consumed_at: null,
        };
        await db
          .insertInto('oidc_payloads')
          .values({ model, id, ...values })
          .onConflict((conflict) => conflict.columns(['model', 'id']).doUpdateSet(values))
          .execute();
      },
      find: (id) => findWhere('id', id),
      findByUid: (uid) => findWhere('uid', uid),
      findByUserCode: (userCode) => findWhere('user_code', userCode),
      async consume(id) {
        if (impossible(id)) return;
        await db.updateTable('oidc_payloads').set({ consumed_at: new Date(now()) }).where('model', '=', model).where('id', '=', id).execute();
      },
      async destroy(id) {
        if (impossible(id)) return;
        await db.deleteFrom('oidc_payloads').where('model', '=', model).where('id', '=', id).execute();
      },
      async revokeByGrantId(grantId) {
        if (impossible(grantId)) return;
        // oidc-provider calls it on each model that holds grants (access and refresh tokens, codes…).
        await db.deleteFrom('oidc_payloads').where('model', '=', model).where('grant_id', '=', grantId).execute();
      },
    };
  };
}

/** Deletes expired payloads, at most `batch`, skipping rows other sessions hold (another node's sweep): how many went. */
export async function purgeExpiredOidcPayloads(db: Kysely<Database>, options: OidcAdapterOptions & { batch?: number } = {}): Promise<number> {
  const at = new Date((options.now ?? Date.now)());
  const result = await sql`
    delete from oidc_payloads where (model, id) in (
      select model, id from oidc_payloads where expires_at <= ${at} limit ${options.batch ?? 10_000} for update skip locked
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
