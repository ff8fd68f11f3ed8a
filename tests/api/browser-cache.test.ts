// Organization lists kept in browser storage (spec §9, issue 18), on a fake clock: a reload (a new query cache on
// the same storage) finds a list for 30 minutes and a search for 5, without asking; only for the person who
// stored them.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/client';
import { createQueryClient } from '../../src/api/query-client';
import { organizationPersisters, setBrowserCacheOwner } from '../../src/api/browser-cache';
import { organizationsQueryOptions } from '../../src/api/organizations';

const MINUTE = 60_000;
const page = { items: [{ id: '00000000-0000-4000-8000-0000000000f1', code: '787441799', name: 'Clinique des Tilleuls', type: 'SIREN', parentId: null, parentCode: null, closed: false, member: true }], total: 1, totalCount: 1, page: 1, pageSize: 100, totalPages: 1 };

/** A Storage in memory, as the browser's localStorage. */
class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

function countingApi(): { api: ApiClient; requests: string[] } {
  const requests: string[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    requests.push(url.pathname + url.search);
    return new Response(JSON.stringify(page), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { api: createApiClient({ baseUrl: 'https://portal.test', getToken: () => 't', fetch: fetch as typeof globalThis.fetch, sleep: async () => {} }), requests };
}

let storage: MemoryStorage;
beforeEach(() => {
  vi.useFakeTimers();
  storage = new MemoryStorage();
  setBrowserCacheOwner('user-a');
});
afterEach(() => {
  setBrowserCacheOwner(null);
  vi.useRealTimers();
});

/** Reads the list in a fresh query cache (a reload of the page) and answers how many requests the server got in all. */
async function readAfterReload(query: Parameters<typeof organizationsQueryOptions>[1], counting: ReturnType<typeof countingApi>) {
  const persisters = organizationPersisters(() => storage);
  const queries = createQueryClient();
  const data = await queries.fetchQuery(organizationsQueryOptions(counting.api, query, persisters));
  // The persister writes in a task of its own, after the answer.
  await vi.advanceTimersByTimeAsync(1);
  queries.clear();
  expect(data.items[0]!.name).toBe('Clinique des Tilleuls');
  return counting.requests.length;
}

describe('organization lists kept in browser storage (spec §9)', () => {
  it('finds a list after a reload for 30 minutes without asking, then asks again', async () => {
    const counting = countingApi();
    const list = { type: 'SIREN' as const, pageSize: 100 };
    expect(await readAfterReload(list, counting)).toBe(1);
    await vi.advanceTimersByTimeAsync(29 * MINUTE);
    expect(await readAfterReload(list, counting)).toBe(1);
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(await readAfterReload(list, counting)).toBe(2);
  });

  it('finds a search after a reload for 5 minutes only', async () => {
    const counting = countingApi();
    const search = { type: 'SIREN' as const, search: 'tilleuls', pageSize: 100 };
    expect(await readAfterReload(search, counting)).toBe(1);
    await vi.advanceTimersByTimeAsync(4 * MINUTE);
    expect(await readAfterReload(search, counting)).toBe(1);
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(await readAfterReload(search, counting)).toBe(2);
  });

  it("keeps each person's lists apart, and nothing while nobody is signed in", async () => {
    const counting = countingApi();
    const list = { type: 'SIRET' as const, pageSize: 100 };
    expect(await readAfterReload(list, counting)).toBe(1);
    setBrowserCacheOwner('user-b');
    expect(await readAfterReload(list, counting)).toBe(2);
    setBrowserCacheOwner(null);
    const before = storage.length;
    expect(await readAfterReload(list, counting)).toBe(3);
    expect(storage.length).toBe(before);
    expect([...Array(storage.length)].map((_, i) => storage.key(i))).toEqual(expect.arrayContaining([expect.stringMatching(/^portail\.cache\.user-a\./), expect.stringMatching(/^portail\.cache\.user-b\./)]));
  });
});
