import type { PageRequest } from '../core/pages.ts';

export type { PageRequest } from '../core/pages.ts';

/** The envelope of a page (UserList, OrganizationList, AuditEntryList): the total under both of its contract names. */
export function pageAnswer<T>(items: T[], total: number, { page, pageSize }: PageRequest) {
  return { items, total, totalCount: total, page, pageSize, totalPages: Math.ceil(total / pageSize) };
}
