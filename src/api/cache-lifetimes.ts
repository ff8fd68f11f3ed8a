/**
 * How long the SPA keeps what it read (spec §9), in one place: a lifetime is both how long an answer counts as
 * fresh (staleTime) and how long it stays in memory once no screen uses it (gcTime), so that coming back within
 * it costs no request.
 */
export const CACHE_MS = {
  /** Organizations looked up by code or by id. */
  organizationLookup: 60 * 60_000,
  /** Organization lists (the SIREN and SIRET dropdowns without search). */
  organizationList: 30 * 60_000,
  /** Organization searches. */
  organizationSearch: 5 * 60_000,
  roles: 24 * 60 * 60_000,
  /** Everything else. */
  default: 5 * 60_000,
} as const;

/** At most this many answers are kept; beyond it the ones no screen uses, least recently updated first, go. */
export const CACHE_MAX_ENTRIES = 100;

/** The options of a query kept `ms`. */
export const keptFor = (ms: number) => ({ staleTime: ms, gcTime: ms });
