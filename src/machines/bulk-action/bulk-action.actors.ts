import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import { ApiFailure, type ApiClient } from '../../api/client';
import { fetchUsersBulkAction, startUsersBulkAction, type BulkActionRequest } from '../../api/bulk-actions';
import { usersKeys } from '../../api/users';
import type { BulkFailure, BulkJob, BulkStartInput } from './bulk-action.machine';

const failureOf = (error: unknown): BulkFailure => (error instanceof ApiFailure && error.status !== 0 ? { status: error.status, message: error.body?.message ?? null } : { status: 0, message: null });

async function orFailure<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw failureOf(error);
  }
}

/** The selection as the server reads it: the people chosen one by one, or the list's filters. */
export function bulkActionRequest({ action, selection }: BulkStartInput): BulkActionRequest {
  return selection.kind === 'ids' ? { action, userIds: selection.ids } : { action, filters: selection.filters };
}

/** The job's start and its progress (aborted when the screen goes), and the users lists read again once it has ended. */
export function bulkActionActors(api: ApiClient, queryClient: QueryClient) {
  return {
    actors: {
      start: fromPromise<BulkJob, BulkStartInput>(({ input, signal }) => orFailure(() => startUsersBulkAction(api, bulkActionRequest(input), signal))),
      poll: fromPromise<BulkJob, { id: string }>(({ input, signal }) => orFailure(() => fetchUsersBulkAction(api, input.id, signal))),
    },
    actions: {
      refreshList: () => void queryClient.invalidateQueries({ queryKey: usersKeys.all }),
    },
  };
}
