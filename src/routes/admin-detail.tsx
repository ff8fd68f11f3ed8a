import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { BACK_OFFICE_ONLY } from '../features/session/guarded';
import { guardBeforeLoad } from '../features/session/route-guard';

/** /admin/{id}: the screen's code loads with the route (admin-detail.lazy.tsx). */
export const adminDetailRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/admin/$id',
  beforeLoad: guardBeforeLoad(BACK_OFFICE_ONLY),
}).lazy(() => import('./admin-detail.lazy').then((m) => m.Route));
