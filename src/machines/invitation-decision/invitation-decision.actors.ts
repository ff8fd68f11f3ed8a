import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import { ApiFailure, type ApiClient } from '../../api/client';
import { approveInvitation, invitationsKeys, rejectInvitation } from '../../api/invitations';
import type { DecidableInvitation, DecisionFailure, DecisionInput } from './invitation-decision.machine';

/** The decision's API calls; the invitation lists and detail are refreshed after each. */
export function invitationDecisionActors(api: ApiClient, queryClient: QueryClient) {
  return {
    actors: {
      decide: fromPromise<DecidableInvitation, DecisionInput>(async ({ input }) => {
        try {
          const { invitation, decision, reason } = input;
          const updated = decision === 'approve' ? await approveInvitation(api, invitation.id) : await rejectInvitation(api, invitation.id, reason);
          queryClient.setQueryData(invitationsKeys.detail(updated.id), updated);
          // The lists show the decision before the confirmation closes, so that the focus it hands back finds
          // the row as it now is.
          await queryClient.invalidateQueries({ queryKey: invitationsKeys.all });
          return updated;
        } catch (error) {
          // Decided elsewhere meanwhile, or not at all: the lists catch up, but the message does not wait for
          // them (with the server out of reach, their refetch would retry for seconds).
          void queryClient.invalidateQueries({ queryKey: invitationsKeys.all });
          const failure: DecisionFailure =
            error instanceof ApiFailure
              ? {
                  status: error.status,
                  statusText: error.statusText,
                  message: error.body?.message ?? null,
                  reasonError: error.body?.fieldErrors?.find((f) => f.field.endsWith('rejectionReason'))?.message ?? null,
                }
              : { status: 0, statusText: '', message: null, reasonError: null };
          throw failure;
        }
      }),
    },
  };
}
