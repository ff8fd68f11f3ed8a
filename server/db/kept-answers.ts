// Answers read from the data that cost too much to read at every request (issue 24: a lifecycle's figures over 90 days
// read and sort every move of the period), kept in this process like the lists' totals (list-totals.ts). An answer
// holds while the versions of its lists (migration 0004) are those it was read at, and while the clock stays within
// its bound: from the moment it was read until the earliest moment at which a row enters or leaves its period. The
// version and the bound are read in the same snapshot as the answer (one REPEATABLE READ transaction), so a kept
// answer is the answer the data would give now; a node that has none, or an outdated one, reads it again.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { PREPARE_ANYWAY } from './database.ts';
import { KeptValues, listsVersion } from './kept-values.ts';
import type { ListName } from './list-totals.ts';
import type { Database } from './schema.ts';

interface Kept {
  version: number;
  from: number;
  until: number;
  answer: unknown;
}

/** What a read gives: the answer, and the earliest moment the clock alone changes it (null: never). */
export interface BoundedAnswer<T> {
  answer: T;
  until: Date | null;
}

/** The answers one server process keeps, least recently used first out (kept-values.ts). */
export class KeptAnswers {
  readonly #kept: KeptValues<Kept>;

  constructor(capacity = 500) {
    this.#kept = new KeptValues<Kept>(capacity);
  }

  /**
   * The answer of `key` at `now`: kept, or read by `read` (in a snapshot with the lists' version). A request of the
   * same key arriving while it is being read waits for that read, then takes what it kept as any request does (its
   * version checked): that read's snapshot may be older than a write this request follows.
   */
  async answer<T>(db: Kysely<Database>, key: string, now: Date, lists: readonly ListName[], read: (trx: Transaction<Database>) => Promise<BoundedAnswer<T>>): Promise<T> {
    const reading = this.#kept.underWay(key);
    if (reading) {
      await reading.catch(() => undefined);
      return this.#answer(db, key, now.getTime(), lists, read);
    }
    return this.#kept.once(key, () => this.#answer(db, key, now.getTime(), lists, read));
  }

  async #answer<T>(db: Kysely<Database>, key: string, now: number, lists: readonly ListName[], read: (trx: Transaction<Database>) => Promise<BoundedAnswer<T>>): Promise<T> {
    const found = this.#kept.get(key);
    if (found && now >= found.from && now < found.until && (await versionOf(db, lists)) === found.version) return found.answer as T;
    const { version, answer, until } = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => ({ version: await versionOf(trx, lists), ...(await read(trx)) }));
    this.#kept.set(key, { version, from: now, until: until === null ? Number.POSITIVE_INFINITY : until.getTime(), answer });
    return answer;
  }
}

/** The lists' version now (prepared: the same statement at every check). */
async function versionOf(db: Kysely<Database>, lists: readonly ListName[]): Promise<number> {
  const { rows } = await sql<{ version: string }>`${sql.raw(PREPARE_ANYWAY)} select ${listsVersion(lists)} as version`.execute(db);
  return Number(rows[0]!.version);
}

/**
 * A key of its parts that tells apart whatever differs in them: sets and maps by their sorted members (JSON.stringify
 * writes every Set as {}: two callers' scopes would share their answers).
 */
export function keyOf(...parts: unknown[]): string {
  return JSON.stringify(parts, (_key, value: unknown) => {
    if (value instanceof Set) return { set: [...(value as Set<unknown>)].map(String).sort() };
    if (value instanceof Map) return { map: [...(value as Map<unknown, unknown>)].sort(([a], [b]) => String(a).localeCompare(String(b))) };
    return value;
  });
}

/**
 * The earliest moment at which the clock alone moves a row in or out of the period [from, to): a row dated at or after
 * `from` leaves it at its date plus the period's length, one dated at or after `to` enters it at its date. `firsts`
 * give, for a moment, the earliest date at or after it of each kind of row the answer counts. Null: none will. The
 * length is in seconds: added to a date, the same whatever the session's time zone (`to - from`, '30 days', was 30
 * calendar days of that zone, an hour more or less across a change of time).
 */
export async function periodChangesAt(db: Kysely<Database>, from: Date, to: Date, firsts: readonly ((after: Date) => RawBuilder<unknown>)[]): Promise<Date | null> {
  const period = sql`make_interval(secs => ${(to.getTime() - from.getTime()) / 1000}::double precision)`;
  const moments = firsts.flatMap((first) => [sql`${first(from)} + ${period}`, first(to)]);
  const { rows } = await sql<{ at: Date | null }>`select least(${sql.join(moments)}) as at`.execute(db);
  return rows[0]!.at === null ? null : new Date(rows[0]!.at);
}
