/** What a list operation is asked for: a page (from 1) of a size. */
export interface PageRequest {
  page: number;
  pageSize: number;
}

/** The envelope of a page (UserList, OrganizationList, AuditEntryList): the total under both of its contract names. */
export function pageAnswer<T>(items: T[], total: number, { page, pageSize }: PageRequest) {
  return { items, total, totalCount: total, page, pageSize, totalPages: Math.ceil(total / pageSize) };
}
