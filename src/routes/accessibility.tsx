import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './root';

/** /accessibilite: the accessibility statement (issue 23), for anyone, signed in or not; it loads with the route. */
export const accessibilityRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/accessibilite',
}).lazy(() => import('./accessibility.lazy').then((m) => m.Route));
