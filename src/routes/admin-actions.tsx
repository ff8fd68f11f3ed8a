import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { USER_CREATE_REQUIRED } from '../features/session/guarded';
import { guardBeforeLoad } from '../features/session/route-guard';

/** /admin-actions: the chooser of a new administrator request; the screen's code loads with the route (admin-actions.lazy.tsx). */
export const adminActionsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/admin-actions',
  beforeLoad: guardBeforeLoad(USER_CREATE_REQUIRED),
}).lazy(() => import('./admin-actions.lazy').then((m) => m.Route));
