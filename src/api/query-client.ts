import { QueryClient, type QueryCache } from '@tanstack/react-query';
import { CACHE_MAX_ENTRIES, CACHE_MS } from './cache-lifetimes';

/** Spec §9: data kept fresh 5 minutes by default. */
export const DEFAULT_STALE_MS = CACHE_MS.default;

/** Keeps at most `max` answers: beyond it, those no screen uses go, least recently updated first. */
function capEntries(cache: QueryCache, max: number): void {
  cache.subscribe((event) => {
    if (event.type !== 'added') return;
    const all = cache.getAll();
    if (all.length <= max) return;
    const unused = all.filter((query) => query.getObserversCount() === 0 && query !== event.query).sort((a, b) => a.state.dataUpdatedAt - b.state.dataUpdatedAt);
    for (const query of unused.slice(0, all.length - max)) cache.remove(query);
  });
}

/**
 * The SPA's query cache. A query never retries on its own: the API client retries what may be retried, once
 * (src/api/client.ts, RETRY_POLICY), so a failing read costs 3 requests, not 3 × 4. Lifetimes: 5 minutes
 * unless the query says otherwise (src/api/cache-lifetimes.ts), 100 answers at most.
 */
export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: { staleTime: DEFAULT_STALE_MS, gcTime: DEFAULT_STALE_MS, retry: false },
      mutations: { retry: false },
    },
  });
  capEntries(client.getQueryCache(), CACHE_MAX_ENTRIES);
  return client;
}
