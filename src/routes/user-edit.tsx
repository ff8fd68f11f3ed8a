import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';

/** /utilisateurs/edit/{userId}: the screen's code loads with the route (user-edit.lazy.tsx). */
export const userEditRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/utilisateurs/edit/$userId',
}).lazy(() => import('./user-edit.lazy').then((m) => m.Route));
