import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';

/** /workflows: the machines' charts for analysts (back office); the screen and Mermaid load with the route (workflows.lazy.tsx). */
export const workflowsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/workflows',
}).lazy(() => import('./workflows.lazy').then((m) => m.Route));
