import { queryOptions } from '@tanstack/react-query';
import { unwrap, type ApiClient } from './client';
import { CACHE_MS, keptFor } from './cache-lifetimes';
import type { components } from './schema.gen';

export type UserDetail = components['schemas']['UserDetail'];
export type UserFullDetails = components['schemas']['UserFullDetails'];
export type UpdateUserCompleteRequest = components['schemas']['UpdateUserCompleteRequest'];
export type OrganizationSummary = components['schemas']['Organization'];

/** Under ['users'] so that whatever refreshes the users refreshes these too. */
export const userDetailsKeys = {
  detail: (id: string) => ['users', 'detail', id] as const,
  fullDetails: (id: string) => ['users', 'full-details', id] as const,
  organizationByCode: (code: string) => ['organizations', 'code', code] as const,
  siretsOf: (sirenId: string) => ['organizations', 'sirets-of', sirenId] as const,
};

/** Spec §9: the SIRET lookup by SIREN asks for pages of 100. */
export const SIRET_PAGE_SIZE = 100;

/** GET /api/v2/users/{id} */
export function fetchUser(api: ApiClient, id: string): Promise<UserDetail> {
  return unwrap(api.GET('/api/v2/users/{id}', { params: { path: { id } } }), 'Failed to fetch user profile');
}

export function userQueryOptions(api: ApiClient, id: string) {
  return queryOptions({ queryKey: userDetailsKeys.detail(id), queryFn: () => fetchUser(api, id) });
}

/** GET /api/v2/users/{id}/full-details */
export function fetchUserFullDetails(api: ApiClient, id: string): Promise<UserFullDetails> {
  return unwrap(api.GET('/api/v2/users/{id}/full-details', { params: { path: { id } } }), 'Failed to fetch user full details');
}

/** PUT /api/v2/users/{id}/complete, against the version read (body and If-Match: a change made meanwhile answers 409). */
export function updateUserComplete(api: ApiClient, id: string, body: UpdateUserCompleteRequest): Promise<UserDetail> {
  const headers = body.version === undefined ? {} : { 'If-Match': `"${body.version}"` };
  return unwrap(api.PUT('/api/v2/users/{id}/complete', { params: { path: { id }, header: headers }, body }), 'Failed to update user');
}

/** GET /api/v2/organizations/code/{code} */
export function fetchOrganizationByCode(api: ApiClient, code: string): Promise<OrganizationSummary> {
  return unwrap(api.GET('/api/v2/organizations/code/{code}', { params: { path: { code } } }), `Organization ${code} not found`);
}

export function organizationByCodeQueryOptions(api: ApiClient, code: string) {
  return queryOptions({ queryKey: userDetailsKeys.organizationByCode(code), queryFn: () => fetchOrganizationByCode(api, code), ...keptFor(CACHE_MS.organizationLookup) });
}

/** Every SIRET of a SIREN, page after page of 100 (GET /api/v2/organizations?type=SIRET&parentId=…). */
export async function fetchAllSirets(api: ApiClient, sirenId: string): Promise<OrganizationSummary[]> {
  const all: OrganizationSummary[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await unwrap(
      api.GET('/api/v2/organizations', { params: { query: { type: 'SIRET', parentId: sirenId, page, pageSize: SIRET_PAGE_SIZE } } }),
      'Failed to fetch organizations',
    );
    all.push(...answer.items);
    if (page >= answer.totalPages || answer.items.length === 0) return all;
  }
}

export function allSiretsQueryOptions(api: ApiClient, sirenId: string) {
  return queryOptions({ queryKey: userDetailsKeys.siretsOf(sirenId), queryFn: () => fetchAllSirets(api, sirenId), ...keptFor(CACHE_MS.organizationList) });
}
