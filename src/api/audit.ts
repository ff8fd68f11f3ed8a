import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { unwrap, type ApiClient } from './client';
import type { components, operations } from './schema.gen';

export type JournalEntry = components['schemas']['AuditEntry'];
export type JournalPage = components['schemas']['AuditEntryList'];
export type JournalQuery = NonNullable<operations['listAuditEntries']['parameters']['query']>;

export const journalKeys = {
  all: ['journal'] as const,
  list: (query: JournalQuery) => [...journalKeys.all, 'list', query] as const,
};

/** GET /api/v2/audit: one page of the journal, as the caller may read it (the server's scope). */
export function fetchJournal(api: ApiClient, query: JournalQuery): Promise<JournalPage> {
  return unwrap(api.GET('/api/v2/audit', { params: { query } }), 'Failed to fetch the journal');
}

export function journalQueryOptions(api: ApiClient, query: JournalQuery) {
  return queryOptions({ queryKey: journalKeys.list(query), queryFn: () => fetchJournal(api, query), placeholderData: keepPreviousData });
}
