import { queryOptions } from '@tanstack/react-query';
import { unwrap, type ApiClient } from './client';
import type { components, operations } from './schema.gen';

export type Organization = components['schemas']['Organization'];
export type OrganizationListQuery = NonNullable<operations['listOrganizations']['parameters']['query']>;

/** Spec §9: organization lists are kept 30 minutes, searches 5 minutes; dropdowns ask for up to 100. */
export const ORGANIZATION_LIST_MS = 30 * 60_000;
export const ORGANIZATION_SEARCH_MS = 5 * 60_000;
export const DROPDOWN_PAGE_SIZE = 100;

export const organizationsKeys = {
  all: ['organizations'] as const,
  list: (query: OrganizationListQuery) => [...organizationsKeys.all, 'list', query] as const,
  one: (id: string) => [...organizationsKeys.all, 'one', id] as const,
};

/** GET /api/v2/organizations */
export function fetchOrganizations(api: ApiClient, query: OrganizationListQuery) {
  return unwrap(api.GET('/api/v2/organizations', { params: { query } }), 'Failed to fetch organizations');
}

export function organizationsQueryOptions(api: ApiClient, query: OrganizationListQuery) {
  const staleTime = query.search ? ORGANIZATION_SEARCH_MS : ORGANIZATION_LIST_MS;
  return queryOptions({ queryKey: organizationsKeys.list(query), queryFn: () => fetchOrganizations(api, query), staleTime });
}

/** GET /api/v2/organizations/{id}: names a chosen organization that a list or a search left out. */
export function organizationQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: organizationsKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/v2/organizations/{id}', { params: { path: { id } } }), 'Failed to fetch organization'),
    staleTime: ORGANIZATION_LIST_MS,
  });
}
