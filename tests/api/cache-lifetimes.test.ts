// Spec §9's cache lifetimes, on a fake clock (issue 18): each kind of answer stays fresh, and in memory once no
// screen uses it, exactly as long as the spec says; at most 100 answers are kept.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueryClient } from '@tanstack/react-query';
import { createApiClient, type ApiClient } from '../../src/api/client';
import { createQueryClient } from '../../src/api/query-client';
import { organizationQueryOptions, organizationsQueryOptions } from '../../src/api/organizations';
import { allSiretsQueryOptions, organizationByCodeQueryOptions, userQueryOptions } from '../../src/api/user-details';
import { rolesQueryOptions } from '../../src/api/roles';
import { CACHE_MAX_ENTRIES } from '../../src/api/cache-lifetimes';

const MINUTE = 60_000;
const page = { items: [], total: 0, totalCount: 0, page: 1, pageSize: 100, totalPages: 0 };
const organization = { id: '00000000-0000-4000-8000-0000000000f1', code: '787441799', name: 'Clinique des Tilleuls', type: 'SIREN', parentId: null, parentCode: null, closed: false, member: true };

/** A client whose every answer fits the route asked (the shapes do not matter here), counting requests per path. */
function countingApi(): { api: ApiClient; requests: string[] } {
  const requests: string[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    requests.push(url.pathname + url.search);
    const body = url.pathname === '/api/v2/roles' ? [] : url.pathname === '/api/v2/organizations' ? page : organization;
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { api: createApiClient({ baseUrl: 'https://portal.test', getToken: () => 't', fetch: fetch as typeof globalThis.fetch, sleep: async () => {} }), requests };
}

let queries: QueryClient;
beforeEach(() => {
  vi.useFakeTimers();
  queries = createQueryClient();
});
afterEach(() => {
  queries.clear();
  vi.useRealTimers();
});

type Options = { queryKey: readonly unknown[]; queryFn?: unknown };

/** Reads once, then again just before `minutes` (from the cache) and just after (from the server: it was dropped). */
async function expectKept(options: Options, minutes: number, requests: string[]) {
  await queries.fetchQuery(options as never);
  expect(requests).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(minutes * MINUTE - 1000);
  await queries.fetchQuery(options as never);
  expect(requests, 'asked again before its lifetime').toHaveLength(1);
  expect(queries.getQueryCache().find({ queryKey: options.queryKey })).toBeDefined();
  await vi.advanceTimersByTimeAsync(2000);
  expect(queries.getQueryCache().find({ queryKey: options.queryKey }), 'still in memory after its lifetime').toBeUndefined();
  await queries.fetchQuery(options as never);
  expect(requests).toHaveLength(2);
}

describe('the cache lifetimes of spec §9', () => {
  it('keeps an organization looked up by code 1 hour', async () => {
    const { api, requests } = countingApi();
    await expectKept(organizationByCodeQueryOptions(api, '787441799'), 60, requests);
  });

  it('keeps an organization looked up by id 1 hour', async () => {
    const { api, requests } = countingApi();
    await expectKept(organizationQueryOptions(api, organization.id), 60, requests);
  });

  it('keeps an organization list 30 minutes, and a SIREN’s SIRETs as a list', async () => {
    const { api, requests } = countingApi();
    await expectKept(organizationsQueryOptions(api, { type: 'SIREN', pageSize: 100 }), 30, requests);
    const sirets = countingApi();
    await expectKept(allSiretsQueryOptions(sirets.api, organization.id), 30, sirets.requests);
  });

  it('keeps an organization search 5 minutes', async () => {
    const { api, requests } = countingApi();
    await expectKept(organizationsQueryOptions(api, { type: 'SIREN', search: 'tilleuls', pageSize: 100 }), 5, requests);
  });

  it('keeps the roles 24 hours', async () => {
    const { api, requests } = countingApi();
    await expectKept(rolesQueryOptions(api), 24 * 60, requests);
  });

  it('keeps anything else 5 minutes', async () => {
    const { api, requests } = countingApi();
    await expectKept(userQueryOptions(api, '6f1d2c3b-0000-4000-8000-000000000002'), 5, requests);
  });

  it(`keeps at most ${CACHE_MAX_ENTRIES} answers, dropping the least recently updated of those no screen uses`, async () => {
    for (let i = 0; i < CACHE_MAX_ENTRIES + 5; i += 1) {
      queries.setQueryData(['entry', i], i);
      await vi.advanceTimersByTimeAsync(10);
    }
    const keys = queries.getQueryCache().getAll().map((q) => q.queryKey[1]);
    expect(keys).toHaveLength(CACHE_MAX_ENTRIES);
    expect(keys).not.toContain(0);
    expect(keys).not.toContain(4);
    expect(keys).toContain(5);
    expect(keys).toContain(CACHE_MAX_ENTRIES + 4);
  });
});
