import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { unwrap, type ApiClient } from './client';
import type { components } from './schema.gen';

export type WorkflowFigures = components['schemas']['WorkflowFigures'];
/** The machines whose figures the server computes (the contract's list). */
export type FiguredWorkflowId = components['parameters']['WorkflowId'];
export type FiguresDays = WorkflowFigures['days'];

export const workflowFiguresKeys = {
  all: ['workflow-figures'] as const,
  of: (workflowIds: readonly FiguredWorkflowId[], days: FiguresDays) => [...workflowFiguresKeys.all, workflowIds, days] as const,
};

/** GET /api/v2/workflows/{workflowId}/figures: the machine's states now and its transitions over the period, as the caller may see them. */
export function fetchWorkflowFigures(api: ApiClient, workflowId: FiguredWorkflowId, days: FiguresDays): Promise<WorkflowFigures> {
  return unwrap(api.GET('/api/v2/workflows/{workflowId}/figures', { params: { path: { workflowId }, query: { days } } }), 'Failed to fetch the figures');
}

/** The figures of these machines over one period, in their order (one query: /workflows draws them together). */
export function workflowFiguresQueryOptions(api: ApiClient, workflowIds: readonly FiguredWorkflowId[], days: FiguresDays) {
  return queryOptions({
    queryKey: workflowFiguresKeys.of(workflowIds, days),
    // Each machine's figures or its refusal: one refused (the account lifecycle's to a back office without USER_LIST)
    // leaves the others shown.
    queryFn: () => Promise.all(workflowIds.map((id) => fetchWorkflowFigures(api, id, days).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))))),
    placeholderData: keepPreviousData,
  });
}
