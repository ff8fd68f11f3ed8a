import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';

/** /admin-actions: the chooser of a new administrator request; the screen's code loads with the route (admin-actions.lazy.tsx). */
export const adminActionsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/admin-actions',
}).lazy(() => import('./admin-actions.lazy').then((m) => m.Route));
