import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { shellRoute } from './shell';
import { PAGE_SIZES, type PageSize } from '../domain/pagination';

const STATUS_FILTERS = ['all', 'PENDING', 'APPROVED', 'REJECTED'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** Filter, search, sort, page and page size live in the URL: a link or a reload keeps them, back works. */
const searchSchema = z.object({
  status: z.enum(STATUS_FILTERS).default('all').catch('all'),
  search: z.string().max(200).default('').catch(''),
  sort: z.enum(['id', 'email', 'createdAt']).default('createdAt').catch('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc').catch('desc'),
  page: z.coerce.number().int().min(1).default(1).catch(1),
  pageSize: z.coerce
    .number()
    .refine((n): n is PageSize => (PAGE_SIZES as readonly number[]).includes(n))
    .default(10)
    .catch(10),
});
export type AdminSearch = z.infer<typeof searchSchema>;

/** /admin: the screen's code loads with the route (admin.lazy.tsx). */
export const adminRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/admin',
  validateSearch: searchSchema,
}).lazy(() => import('./admin.lazy').then((m) => m.Route));
