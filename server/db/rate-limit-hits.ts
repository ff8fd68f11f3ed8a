// Counts of hits per key in fixed windows, in the database (migration 0007, rate_limit_hits), so that every node
// of a cluster counts together: the API rate limit (server/plugins/rate-limit.ts) and the local sign-in
// throttle (server/dev-idp/sign-in-throttle.ts).
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

export interface HitCount {
  /** Hits in the key's current window, this one included (0: no window under way). */
  count: number;
  /** Milliseconds until the window ends (0: no window under way). */
  msLeft: number;
}

export interface HitCounter {
  /**
   * Counts a hit: the first one opens a window of `windowMs`, which ends windowMs later whatever follows; with
   * `sliding`, each hit moves the window's end to windowMs after it (the count ends after windowMs without a hit).
   */
  hit(key: string, windowMs: number, options?: { sliding?: boolean }): Promise<HitCount>;
  /** Opens a new window of `windowMs` for the key, with a count of 1, whatever it had. */
  restart(key: string, windowMs: number): Promise<void>;
  /** Keeps the key's window (if any) open at least `ms` from now. */
  extend(key: string, ms: number): Promise<void>;
  /** The key's count, without counting. */
  read(key: string): Promise<HitCount>;
  /** Forgets the key's window. */
  clear(key: string): Promise<void>;
  /** Deletes rows of ended windows, at most `batch` of them, skipping rows other sessions hold: how many went. */
  purgeExpired(batch?: number): Promise<number>;
}

export interface HitCounterOptions {
  /**
   * The time, in milliseconds. The node's clock, not the database's: every node must keep its clock in step
   * (as it must anyway for tokens' expiry), and tests move it with fake timers.
   */
  now?: () => number;
}

const NONE: HitCount = { count: 0, msLeft: 0 };

export function createHitCounter(db: Kysely<Database>, options: HitCounterOptions = {}): HitCounter {
  const now = options.now ?? (() => Date.now());
  return {
    async hit(key, windowMs, { sliding = false } = {}) {
      const at = now();
      const atDate = new Date(at);
      // One statement, one round trip, atomic under concurrency: the row is created, counted, or (its window
      // over) started again. SET's expressions read the row as it was before the update.
      const row = await db
        .insertInto('rate_limit_hits')
        .values({ key, count: 1, expires_at: new Date(at + windowMs) })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet({
            count: sql<number>`case when rate_limit_hits.expires_at <= ${atDate} then 1 else rate_limit_hits.count + 1 end`,
            expires_at: sliding
              ? sql<Date>`excluded.expires_at`
              : sql<Date>`case when rate_limit_hits.expires_at <= ${atDate} then excluded.expires_at else rate_limit_hits.expires_at end`,
          }),
        )
        .returning(['count', 'expires_at'])
        .executeTakeFirstOrThrow();
      return { count: row.count, msLeft: new Date(row.expires_at).getTime() - at };
    },
    async restart(key, windowMs) {
      const expires = new Date(now() + windowMs);
      await db
        .insertInto('rate_limit_hits')
        .values({ key, count: 1, expires_at: expires })
        .onConflict((conflict) => conflict.column('key').doUpdateSet({ count: 1, expires_at: expires }))
        .execute();
    },
    async extend(key, ms) {
      const until = new Date(now() + ms);
      await db
        .updateTable('rate_limit_hits')
        .set({ expires_at: sql<Date>`greatest(expires_at, ${until})` })
        .where('key', '=', key)
        .execute();
    },
    async read(key) {
      const at = now();
      const row = await db
        .selectFrom('rate_limit_hits')
        .select(['count', 'expires_at'])
        .where('key', '=', key)
        .where('expires_at', '>', new Date(at))
        .executeTakeFirst();
      return row ? { count: row.count, msLeft: new Date(row.expires_at).getTime() - at } : NONE;
    },
    async clear(key) {
      await db.deleteFrom('rate_limit_hits').where('key', '=', key).execute();
    },
    async purgeExpired(batch = 10_000) {
      const expired = db
        .selectFrom('rate_limit_hits')
        .select('key')
        .where('expires_at', '<=', new Date(now()))
        .limit(batch)
        .forUpdate()
        .skipLocked();
      const result = await db.deleteFrom('rate_limit_hits').where('key', 'in', expired).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
