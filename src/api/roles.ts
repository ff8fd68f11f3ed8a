import { queryOptions } from '@tanstack/react-query';
import { unwrap, type ApiClient } from './client';
import { CACHE_MS, keptFor } from './cache-lifetimes';
import type { components } from './schema.gen';

export type Role = components['schemas']['Role'];


export const rolesKeys = {
  all: ['roles'] as const,
};

/** GET /api/v2/roles */
export function fetchRoles(api: ApiClient): Promise<Role[]> {
  return unwrap(api.GET('/api/v2/roles'), 'Failed to fetch roles');
}

export function rolesQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: rolesKeys.all, queryFn: () => fetchRoles(api), ...keptFor(CACHE_MS.roles) });
}
