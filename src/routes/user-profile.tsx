import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';

/** /utilisateurs/{id}: the read-only profile; the screen's code loads with the route (user-profile.lazy.tsx). */
export const userProfileRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/utilisateurs/$id',
}).lazy(() => import('./user-profile.lazy').then((m) => m.Route));
