// Organization lists kept in browser storage (spec §9: 30 minutes for lists, 5 for searches), through TanStack
// Query's own per-query persister (issue 18): a reload, or another tab, finds them without asking the server.
// The entries belong to the person signed in: stored under their id, read only for them, and gone with the
// storage when they sign out (the session's sign-out empties it).
import { experimental_createQueryPersister, type AsyncStorage } from '@tanstack/query-persist-client-core';
import { CACHE_MS } from './cache-lifetimes';
import { browserCacheOwner } from './browser-cache-owner';

export { setBrowserCacheOwner } from './browser-cache-owner';

function storageOf(base: () => Storage | null): AsyncStorage<string> {
  const key = (name: string) => `portail.cache.${browserCacheOwner()}.${name}`;
  const store = () => {
    try {
      return browserCacheOwner() ? base() : null;
    } catch {
      return null;
    }
  };
  return {
    getItem: (name) => store()?.getItem(key(name)) ?? null,
    setItem: (name, value) => {
      try {
        store()?.setItem(key(name), value);
      } catch {
        // A full or refused storage keeps nothing: the answer stays in memory only.
      }
    },
    removeItem: (name) => store()?.removeItem(key(name)),
  };
}

const local = () => (typeof window === 'undefined' ? null : window.localStorage);

/** The persisters of organization lists and searches, on the given storage (the browser's by default). */
export function organizationPersisters(base: () => Storage | null = local) {
  const storage = storageOf(base);
  return {
    list: experimental_createQueryPersister({ storage, maxAge: CACHE_MS.organizationList, prefix: 'organizations', buster: '1' }).persisterFn,
    search: experimental_createQueryPersister({ storage, maxAge: CACHE_MS.organizationSearch, prefix: 'organizations', buster: '1' }).persisterFn,
  };
}

export const ORGANIZATION_PERSISTERS = organizationPersisters();
