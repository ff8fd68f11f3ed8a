import type { SearchSchemaInput } from '@tanstack/react-router';

/**
 * The checks of the URL search parameters, for the routes' `validateSearch`. Each field reads the raw
 * value TanStack Router parsed from the URL and keeps it only when it is right, otherwise its fallback:
 * a wrong link never fails a page. They are plain functions rather than zod schemas because the route
 * definitions load with the first screen, within its budget (scripts/web-bundle.ts), and zod's core
 * weighs 14 kB gzipped there; zod stays in the forms, which load with their screens.
 */

/** Reads one search parameter: the raw value (undefined when absent) in, a valid value out. */
export type SearchField<T> = (raw: unknown) => T;

/** A string of at most `max` characters; anything else gives ''. */
export const text =
  (max: number): SearchField<string> =>
  (raw) =>
    typeof raw === 'string' && raw.length <= max ? raw : '';

/** One of the values; anything else gives the fallback. */
export const oneOf =
  <const V extends string>(values: readonly V[], fallback: V): SearchField<V> =>
  (raw) =>
    (values as readonly unknown[]).includes(raw) ? (raw as V) : fallback;

/** The value as a number (a string is read as one) when it is an integer of at least `min`; otherwise the fallback. */
export const integer =
  (min: number, fallback: number): SearchField<number> =>
  (raw) => {
    const n = raw === undefined || raw === null ? NaN : Number(raw);
    return Number.isInteger(n) && n >= min ? n : fallback;
  };

/** The value as a number when it is one of `values` (e.g. the page sizes); otherwise the fallback. */
export const numberOf =
  <const V extends number>(values: readonly V[], fallback: V): SearchField<V> =>
  (raw) => {
    const n = raw === undefined || raw === null ? NaN : Number(raw);
    return (values as readonly number[]).includes(n) ? (n as V) : fallback;
  };

/** One of the values, or nothing. */
export const maybeOneOf =
  <const V extends string>(values: readonly V[]): SearchField<V | undefined> =>
  (raw) =>
    (values as readonly unknown[]).includes(raw) ? (raw as V) : undefined;

/** A string matching the pattern, or nothing. */
export const matching =
  (pattern: RegExp): SearchField<string | undefined> =>
  (raw) =>
    typeof raw === 'string' && pattern.test(raw) ? raw : undefined;

/** An RFC 9562 UUID (as the API's ids are), or nothing. */
export const uuid = matching(/^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/);

/** true or false, or nothing. */
export const flag: SearchField<boolean | undefined> = (raw) => (typeof raw === 'boolean' ? raw : undefined);

/** Whether a UUID is well formed (ids in route paths). */
export const isUuid = (value: string): boolean => uuid(value) !== undefined;

/**
 * The route's `validateSearch`: every field read, unknown parameters dropped, absent optional ones left out.
 * Its parameter type (marked SearchSchemaInput for TanStack Router) is what links and navigation may pass: every field optional.
 */
export function searchValidator<T extends object>(fields: { [K in keyof T]-?: SearchField<T[K]> }): (search: Partial<T> & SearchSchemaInput) => T {
  return (search) => {
    const raw = (search ?? {}) as Record<string, unknown>;
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(fields) as (keyof T & string)[]) {
      const value = fields[key](raw[key]);
      if (value !== undefined) result[key] = value;
    }
    return result as T;
  };
}
