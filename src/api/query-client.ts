import { QueryClient } from '@tanstack/react-query';

/** Spec §9: data kept fresh 5 minutes by default. */
export const DEFAULT_STALE_MS = 5 * 60_000;

/**
 * The SPA's query cache. A query never retries on its own: the API client retries what may be retried, once
 * (src/api/client.ts, RETRY_POLICY), so a failing read costs 3 requests, not 3 × 4.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: DEFAULT_STALE_MS, gcTime: DEFAULT_STALE_MS, retry: false },
      mutations: { retry: false },
    },
  });
}
