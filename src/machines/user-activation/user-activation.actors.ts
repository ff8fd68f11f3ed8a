import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import { ApiFailure, type ApiClient } from '../../api/client';
import { deactivateUser, deleteUserPermanently, reactivateUser, usersKeys } from '../../api/users';
import { resendUserInvitation } from '../../api/bulk-actions';
import type { ActivationAction, ActivationFailure, ActivationTarget } from './user-activation.machine';

/** The activation's API calls; the users lists are refreshed after each. */
export function userActivationActors(api: ApiClient, queryClient: QueryClient) {
  return {
    actors: {
      perform: fromPromise<void, { target: ActivationTarget; action: ActivationAction }>(async ({ input }) => {
        try {
          if (input.action === 'deactivate') await deactivateUser(api, input.target.id);
          else if (input.action === 'reactivate') await reactivateUser(api, input.target.id);
          else if (input.action === 'resendInvitation') await resendUserInvitation(api, input.target.id);
          else await deleteUserPermanently(api, input.target.id);
          // The list shows the change before the confirmation closes, so that the focus it hands back finds
          // the row as it now is.
          await queryClient.invalidateQueries({ queryKey: usersKeys.all });
        } catch (error) {
          // The message does not wait for the list (with the server out of reach, its refetch would retry for seconds).
          void queryClient.invalidateQueries({ queryKey: usersKeys.all });
          const failure: ActivationFailure = error instanceof ApiFailure ? { status: error.status, message: error.body?.message ?? null } : { status: 0, message: null };
          throw failure;
        }
      }),
    },
  };
}
