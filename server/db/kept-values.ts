// What one server process keeps of answers read from the database, by key, least recently used first out; and the
// reads under way, so that a request of a key being read waits for that read instead of reading it again. What is
// kept is checked against the database at each use (list-totals.ts, kept-answers.ts): nothing here is the truth.
import { sql, type RawBuilder } from 'kysely';
import type { ListName } from './list-totals.ts';

export class KeptValues<V> {
  readonly #kept = new Map<string, V>();
  /** The values being read now, by key. Settled ones leave at once. */
  readonly #reading = new Map<string, Promise<unknown>>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(key: string): V | undefined {
    const kept = this.#kept.get(key);
    if (kept !== undefined) {
      this.#kept.delete(key);
      this.#kept.set(key, kept);
    }
    return kept;
  }

  set(key: string, value: V): void {
    this.#kept.delete(key);
    this.#kept.set(key, value);
    if (this.#kept.size > this.#capacity) this.#kept.delete(this.#kept.keys().next().value!);
  }

  /** The read of `key` under way, if any. */
  underWay(key: string): Promise<unknown> | undefined {
    return this.#reading.get(key);
  }

  /** `read`'s answer, or that of the same key's read already under way. */
  once<T>(key: string, read: () => Promise<T>): Promise<T> {
    const reading = this.#reading.get(key);
    if (reading) return reading as Promise<T>;
    const started = read().finally(() => this.#reading.delete(key));
    this.#reading.set(key, started);
    return started;
  }

  get size(): number {
    return this.#kept.size;
  }
}

/** The sum of the lists' versions (migration 0004: each bumped by every statement that may change their rows). */
export function listsVersion(lists: readonly ListName[]): RawBuilder<number> {
  return sql<number>`(select coalesce(sum(version), 0)::bigint from list_versions where list = any(${[...lists]}::text[]))`;
}
