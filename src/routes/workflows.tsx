import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { BACK_OFFICE_ONLY } from '../features/session/guarded';
import { guardBeforeLoad } from '../features/session/route-guard';
import { numberOf, searchValidator } from '../lib/search-params';
import { DEFAULT_FIGURES_PERIOD, FIGURES_PERIODS, type FiguresPeriod } from '../domain/figures-periods';

export interface WorkflowsSearch {
  /** The period of the figures drawn on the server's lifecycle charts (issue 24), in days. */
  days: FiguresPeriod;
}

const validateSearch = searchValidator<WorkflowsSearch>({ days: numberOf(FIGURES_PERIODS, DEFAULT_FIGURES_PERIOD) });

/** /workflows: the machines' charts for analysts (back office); the screen and Mermaid load with the route (workflows.lazy.tsx). */
export const workflowsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/workflows',
  validateSearch,
  beforeLoad: guardBeforeLoad(BACK_OFFICE_ONLY),
}).lazy(() => import('./workflows.lazy').then((m) => m.Route));
