import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { shellRoute } from './shell';
import { listSearchFields } from './list-search';

const { search, page } = listSearchFields('asc');

/** The search and the page live in the URL (the page size is fixed: spec §9, 10). */
const searchSchema = z.object({ search, page });
export type AssignExistingSearch = z.infer<typeof searchSchema>;

/** /admin-actions/assign-existing: the screen's code loads with the route (assign-existing.lazy.tsx). */
export const assignExistingRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/admin-actions/assign-existing',
  validateSearch: searchSchema,
}).lazy(() => import('./assign-existing.lazy').then((m) => m.Route));
