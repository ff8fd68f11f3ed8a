import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { unwrap, type ApiClient } from './client';
import type { components } from './schema.gen';

export type WorkflowFigures = components['schemas']['WorkflowFigures'];
/** The machines whose figures the server computes (the contract's list). */
export type FiguredWorkflowId = components['parameters']['WorkflowId'];
export type FiguresDays = WorkflowFigures['days'];

export const workflowFiguresKeys = {
  all: ['workflow-figures'] as const,
  of: (workflowId: FiguredWorkflowId, days: FiguresDays) => [...workflowFiguresKeys.all, workflowId, days] as const,
};

/** GET /api/v2/workflows/{workflowId}/figures: the machine's states now and its transitions over the period, as the caller may see them. */
export function fetchWorkflowFigures(api: ApiClient, workflowId: FiguredWorkflowId, days: FiguresDays): Promise<WorkflowFigures> {
  return unwrap(api.GET('/api/v2/workflows/{workflowId}/figures', { params: { path: { workflowId }, query: { days } } }), 'Failed to fetch the figures');
}

export function workflowFiguresQueryOptions(api: ApiClient, workflowId: FiguredWorkflowId, days: FiguresDays) {
  return queryOptions({ queryKey: workflowFiguresKeys.of(workflowId, days), queryFn: () => fetchWorkflowFigures(api, workflowId, days), placeholderData: keepPreviousData });
}
