import { queryOptions } from '@tanstack/react-query';
import { unwrap, type ApiClient } from './client';
import type { components } from './schema.gen';

export type Role = components['schemas']['Role'];

/** Spec §9: the role cache lives 24 hours. */
export const ROLES_CACHE_MS = 24 * 60 * 60 * 1000;

export const rolesKeys = {
  all: ['roles'] as const,
};

/** GET /api/v2/roles */
export function fetchRoles(api: ApiClient): Promise<Role[]> {
  return unwrap(api.GET('/api/v2/roles'), 'Failed to fetch roles');
}

export function rolesQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: rolesKeys.all, queryFn: () => fetchRoles(api), staleTime: ROLES_CACHE_MS, gcTime: ROLES_CACHE_MS });
}
