// The seed's generator: mulberry32, drawn in a fixed order, and ids derived from stable keys.
import { createHash } from 'node:crypto';

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export class Random {
  readonly #next: () => number;
  constructor(seed: number) {
    this.#next = mulberry32(seed);
  }
  float(): number {
    return this.#next();
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.#next() * (max - min + 1));
  }
  chance(probability: number): boolean {
    return this.#next() < probability;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(0, items.length - 1)] as T;
  }
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let draw = this.#next() * total;
    for (const [value, weight] of entries) {
      draw -= weight;
      if (draw < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (!last) throw new Error('weighted pick from an empty list');
    return last[0];
  }
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = this.int(0, i);
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  }
  digits(count: number): string {
    let text = '';
    for (let i = 0; i < count; i += 1) text += String(this.int(0, 9));
    return text;
  }
}

/** A version-4-shaped uuid from the sha-256 of a stable key: same key, same id, on every seed. */
export function stableUuid(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
