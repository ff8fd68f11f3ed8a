import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { BACK_OFFICE_ONLY } from '../features/session/guarded';
import { guardBeforeLoad } from '../features/session/route-guard';

/** /workflows: the machines' charts for analysts (back office); the screen and Mermaid load with the route (workflows.lazy.tsx). */
export const workflowsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/workflows',
  beforeLoad: guardBeforeLoad(BACK_OFFICE_ONLY),
}).lazy(() => import('./workflows.lazy').then((m) => m.Route));
