import { queryOptions } from '@tanstack/react-query';
import { unwrap, type ApiClient } from './client';
import type { components } from './schema.gen';

export type RetentionItem = components['schemas']['RetentionItem'];

export const retentionKeys = {
  all: ['retention'] as const,
};

/** GET /api/v2/retention: what the portal keeps and for how long, from the server's settings (back office). */
export function fetchRetention(api: ApiClient): Promise<RetentionItem[]> {
  return unwrap(api.GET('/api/v2/retention'), 'Failed to fetch the retention table').then((table) => table.items);
}

export function retentionQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: retentionKeys.all, queryFn: () => fetchRetention(api) });
}
