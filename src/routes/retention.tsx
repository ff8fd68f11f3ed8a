import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { BACK_OFFICE_ONLY } from '../features/session/guarded';
import { guardBeforeLoad, prefetchWhenAllowed } from '../features/session/route-guard';
import { retentionQueryOptions } from '../api/retention';

/** /conservation, 'Durées de conservation' (issue 23): the back office's; the screen loads with the route (retention.lazy.tsx). */
export const retentionRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/conservation',
  beforeLoad: guardBeforeLoad(BACK_OFFICE_ONLY),
  loader: ({ context }) => prefetchWhenAllowed(context, BACK_OFFICE_ONLY, retentionQueryOptions(context.api)),
}).lazy(() => import('./retention.lazy').then((m) => m.Route));
