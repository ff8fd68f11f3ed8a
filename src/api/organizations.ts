import { queryOptions } from '@tanstack/react-query';
import { unwrap, type ApiClient } from './client';
import { CACHE_MS, keptFor } from './cache-lifetimes';
import type { organizationPersisters } from './browser-cache';

type Persisters = ReturnType<typeof organizationPersisters>;
type PersisterFn = Persisters['list'];

/**
 * The browser-storage persisters (src/api/browser-cache.ts), loaded with the first organization list asked
 * for rather than with the screens that may ask for one: the lists' screens stay within their budget.
 */
const lazyPersister =
  (kind: keyof Persisters): PersisterFn =>
  (queryFn, context, query) =>
    import('./browser-cache').then((m) => m.ORGANIZATION_PERSISTERS[kind](queryFn, context, query));
const LAZY_PERSISTERS: Persisters = { list: lazyPersister('list'), search: lazyPersister('search') };
import type { components, operations } from './schema.gen';

export type Organization = components['schemas']['Organization'];
export type OrganizationListQuery = NonNullable<operations['listOrganizations']['parameters']['query']>;

/** Spec §9: dropdowns ask for up to 100. */
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

export function organizationsQueryOptions(api: ApiClient, query: OrganizationListQuery, persisters: Persisters = LAZY_PERSISTERS) {
  // Spec §9: lists kept 30 minutes, searches 5 minutes, in memory and in browser storage.
  const kept = keptFor(query.search ? CACHE_MS.organizationSearch : CACHE_MS.organizationList);
  return queryOptions({ queryKey: organizationsKeys.list(query), queryFn: () => fetchOrganizations(api, query), ...kept, persister: query.search ? persisters.search : persisters.list });
}

/** GET /api/v2/organizations/{id}: names a chosen organization that a list or a search left out. */
export function organizationQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: organizationsKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/v2/organizations/{id}', { params: { path: { id } } }), 'Failed to fetch organization'),
    // Spec §9: a lookup by id is kept 1 hour.
    ...keptFor(CACHE_MS.organizationLookup),
  });
}
