import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';

/** /admin/{id}: the screen's code loads with the route (admin-detail.lazy.tsx). */
export const adminDetailRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/admin/$id',
}).lazy(() => import('./admin-detail.lazy').then((m) => m.Route));
