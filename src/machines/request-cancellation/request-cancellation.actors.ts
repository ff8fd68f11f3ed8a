import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import { ApiFailure, type ApiClient } from '../../api/client';
import { invitationsKeys } from '../../api/invitations';
import { cancelInvitation } from '../../api/my-invitations';
import type { CancellationFailure, CancellationInput } from './request-cancellation.machine';

/** The cancellation's API call; the requests' lists are refreshed after it, whatever its outcome. */
export function requestCancellationActors(api: ApiClient, queryClient: QueryClient) {
  return {
    actors: {
      cancel: fromPromise<void, CancellationInput>(async ({ input }) => {
        try {
          await cancelInvitation(api, input.request.id, input.reason);
          await queryClient.invalidateQueries({ queryKey: invitationsKeys.all });
        } catch (error) {
          void queryClient.invalidateQueries({ queryKey: invitationsKeys.all });
          const failure: CancellationFailure = error instanceof ApiFailure ? { status: error.status, message: error.body?.message ?? null } : { status: 0, message: null };
          throw failure;
        }
      }),
    },
  };
}
