// Answers read from the data that cost too much to read at every request (issue 24: a lifecycle's figures over 90 days
// read and sort every move of the period), kept in this process like the lists' totals (list-totals.ts). An answer
// holds while the versions of its lists (migration 0004) are those it was read at, and while the clock stays within
// its bound: from the moment it was read until the earliest moment at which a row enters or leaves its period. The
// version and the bound are read in the same snapshot as the answer (one REPEATABLE READ transaction), so a kept
// answer is the answer the data would give now; a node that has none, or an outdated one, reads it again.
import { sql, type Kysely, type Transaction } from 'kysely';
import { PREPARE_ANYWAY } from './database.ts';
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

/** The answers one server process keeps, least recently used first out. */
export class KeptAnswers {
  readonly #kept = new Map<string, Kept>();
  readonly #reading = new Map<string, Promise<unknown>>();
  readonly #capacity: number;

  constructor(capacity = 500) {
    this.#capacity = capacity;
  }

  /**
   * The answer of `key` at `now`: kept, or read by `read` (in a snapshot with the lists' version). A request of the
   * same key arriving while it is being read waits for that read, then takes what it kept as any request does (its
   * version checked): that read's snapshot may be older than a write this request follows.
   */
  async answer<T>(db: Kysely<Database>, key: string, now: Date, lists: readonly ListName[], read: (trx: Transaction<Database>) => Promise<BoundedAnswer<T>>): Promise<T> {
    const reading = this.#reading.get(key);
    if (reading) {
      await reading.catch(() => undefined);
      return this.answer(db, key, now, lists, read);
    }
    const started = this.#answer(db, key, now.getTime(), lists, read).finally(() => this.#reading.delete(key));
    this.#reading.set(key, started);
    return started;
  }

  async #answer<T>(db: Kysely<Database>, key: string, now: number, lists: readonly ListName[], read: (trx: Transaction<Database>) => Promise<BoundedAnswer<T>>): Promise<T> {
    const found = this.#kept.get(key);
    if (found && now >= found.from && now < found.until && (await listsVersion(db, lists)) === found.version) {
      this.#kept.delete(key);
      this.#kept.set(key, found);
      return found.answer as T;
    }
    const { version, answer, until } = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => ({ version: await listsVersion(trx, lists), ...(await read(trx)) }));
    this.#kept.delete(key);
    this.#kept.set(key, { version, from: now, until: until === null ? Number.POSITIVE_INFINITY : until.getTime(), answer });
    if (this.#kept.size > this.#capacity) this.#kept.delete(this.#kept.keys().next().value!);
    return answer;
  }
}

/** The sum of the lists' versions (each bumped by every statement that may change their rows). */
async function listsVersion(db: Kysely<Database>, lists: readonly ListName[]): Promise<number> {
  const { rows } = await sql<{ version: string }>`${sql.raw(PREPARE_ANYWAY)}
    select coalesce(sum(version), 0)::bigint as version from list_versions where list = any(${[...lists]}::text[])`.execute(db);
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
