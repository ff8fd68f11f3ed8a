import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { USER_CREATE_REQUIRED } from '../features/session/guarded';
import { guardBeforeLoad } from '../features/session/route-guard';
import { listSearchFields, type ListSearch } from '../lib/list-search';
import { searchValidator } from '../lib/search-params';

export type AssignExistingSearch = Pick<ListSearch, 'search' | 'page'>;

const { search, page } = listSearchFields('asc');

/** The search and the page live in the URL (the page size is fixed: spec §9, 10). */
const validateSearch = searchValidator<AssignExistingSearch>({ search, page });

/** /admin-actions/assign-existing: the screen's code loads with the route (assign-existing.lazy.tsx). */
export const assignExistingRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/admin-actions/assign-existing',
  beforeLoad: guardBeforeLoad(USER_CREATE_REQUIRED),
  validateSearch,
}).lazy(() => import('./assign-existing.lazy').then((m) => m.Route));
