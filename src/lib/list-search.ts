import { PAGE_SIZES, type PageSize } from '../domain/pagination';
import { integer, numberOf, oneOf, text, type SearchField } from './search-params';

/** The URL search parameters every list shares. */
export interface ListSearch {
  search: string;
  order: 'asc' | 'desc';
  page: number;
  pageSize: PageSize;
}

/**
 * The URL search parameters every list shares: the search text, the order, the page and the page size
 * (10/20/50/100, default 10). A wrong value falls back to its default instead of failing the page.
 */
export function listSearchFields(defaultOrder: 'asc' | 'desc'): { [K in keyof ListSearch]: SearchField<ListSearch[K]> } {
  return {
    search: text(200),
    order: oneOf(['asc', 'desc'], defaultOrder),
    page: integer(1, 1),
    pageSize: numberOf(PAGE_SIZES, 10),
  };
}
