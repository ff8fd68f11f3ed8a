import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';

/** /test-v2-api: the developer API test page (any signed-in user); the screen's code loads with the route (test-v2-api.lazy.tsx). */
export const testV2ApiRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/test-v2-api',
}).lazy(() => import('./test-v2-api.lazy').then((m) => m.Route));
