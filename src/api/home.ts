// The Accueil's counts (issue 24): one request for the work that waits for the signed-in person.
import { queryOptions } from '@tanstack/react-query';
import { unwrap, type ApiClient } from './client';
import type { components } from './schema.gen';

export type Home = components['schemas']['Home'];

/** GET /api/v2/home */
export function fetchHome(api: ApiClient): Promise<Home> {
  return unwrap(api.GET('/api/v2/home'), 'Failed to fetch the home counts');
}

/** Read again at each visit of the Accueil (the cached counts are shown meanwhile): the lists change under them. */
export function homeQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: ['home'] as const, queryFn: () => fetchHome(api), staleTime: 0 });
}
