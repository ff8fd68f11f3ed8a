import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import { ApiFailure, type ApiClient } from '../../api/client';
import { createInvitation, invitationsKeys } from '../../api/invitations';
import { fetchOrganizationByCode } from '../../api/user-details';
import { usersKeys } from '../../api/users';
import { ASSIGNED_ROLE_CODE, ASSIGNMENT_INVITATION_TYPE } from '../../domain/admin-request';
import type { AssignCandidate, SubmitRequestsInput, SubmitRequestsOutput } from './assign-admin.machine';

/** What is known of the user, for the request's profile (spec §3 invitation creation payload). */
function userProfileOf(user: AssignCandidate) {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    ...(user.jobTitle ? { jobTitle: user.jobTitle } : {}),
    ...(user.phoneNumber ? { phoneNumber: user.phoneNumber } : {}),
  };
}

/**
 * A SIREN fails when the API refuses it (organization not found or out of reach, a request already pending,
 * a refusal): the others are still tried. Without an answer at all (the network, after the retries) nothing
 * else can succeed: the submission stops with that message.
 */
function isRefusal(error: unknown): boolean {
  return error instanceof ApiFailure && error.status > 0;
}

/** One ROLE_ASSIGNMENT request for ADMIN_ADHERENT per SIREN of the user, one after the other; the lists are refreshed afterwards, whatever happened. */
export function assignAdminActors(api: ApiClient, queryClient: QueryClient) {
  return {
    actors: {
      submitRequests: fromPromise<SubmitRequestsOutput, SubmitRequestsInput>(async ({ input }) => {
        const outcome: SubmitRequestsOutput = { created: 0, failed: 0 };
        try {
          for (const siren of input.sirens) {
            try {
              const organization = await fetchOrganizationByCode(api, siren);
              await createInvitation(api, organization.id, {
                inviteeEmail: input.user.email,
                roleCode: ASSIGNED_ROLE_CODE,
                invitationType: ASSIGNMENT_INVITATION_TYPE,
                metadata: { userProfile: userProfileOf(input.user), isNewUser: false, senderEmail: input.senderEmail },
              });
              outcome.created += 1;
            } catch (error) {
              if (!isRefusal(error)) throw error;
              outcome.failed += 1;
            }
          }
          return outcome;
        } finally {
          // Created or refused (e.g. already pending), the users' pending flags may have changed.
          void queryClient.invalidateQueries({ queryKey: usersKeys.all });
          void queryClient.invalidateQueries({ queryKey: invitationsKeys.all });
        }
      }),
    },
  };
}
