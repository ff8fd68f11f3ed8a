import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { shellRoute } from './shell';
import { listSearchFields } from './list-search';

const STATUS_FILTERS = ['all', 'PENDING', 'APPROVED', 'REJECTED'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** Filter, search, sort, page and page size live in the URL: a link or a reload keeps them, back works. */
const searchSchema = z.object({
  status: z.enum(STATUS_FILTERS).default('all').catch('all'),
  sort: z.enum(['id', 'email', 'createdAt']).default('createdAt').catch('createdAt'),
  ...listSearchFields('desc'),
});
export type AdminSearch = z.infer<typeof searchSchema>;

/** /admin: the screen's code loads with the route (admin.lazy.tsx). */
export const adminRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/admin',
  validateSearch: searchSchema,
}).lazy(() => import('./admin.lazy').then((m) => m.Route));
