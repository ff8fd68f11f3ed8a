import { z } from 'zod';
import { PAGE_SIZES, type PageSize } from '../domain/pagination';

/**
 * The URL search parameters every list shares: the search text, the order, the page and the page size
 * (10/20/50/100, default 10). A wrong value falls back to its default instead of failing the page.
 */
export function listSearchFields(defaultOrder: 'asc' | 'desc') {
  return {
    search: z.string().max(200).default('').catch(''),
    order: z.enum(['asc', 'desc']).default(defaultOrder).catch(defaultOrder),
    page: z.coerce.number().int().min(1).default(1).catch(1),
    pageSize: z.coerce
      .number()
      .refine((n): n is PageSize => (PAGE_SIZES as readonly number[]).includes(n))
      .default(10)
      .catch(10),
  };
}
