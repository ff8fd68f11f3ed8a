import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import { ApiFailure, type ApiClient } from '../../api/client';
import { createInvitation, invitationsKeys } from '../../api/invitations';
import { createUserComplete, usersKeys } from '../../api/users';
import { fr } from '../../i18n/fr';
import type { SubmitInput } from './creation-wizard.machine';

const t = fr.userCreate.failures;

/** Spec §8: the server's words when it says an invitation for this combination is already pending. */
const saysAlreadyPending = (message: string) => /déjà en attente|already exists/i.test(message);

/** The French message of a failed administrator request (spec §8 'Invitations'). */
export function invitationFailureMessage(error: unknown, organizationCode: string): string {
  if (!(error instanceof ApiFailure)) return t.invitation;
  const text = `${error.body?.message ?? ''} ${error.body?.error ?? ''}`;
  if (error.status === 409 && saysAlreadyPending(text)) return t.alreadyPending;
  if (error.status === 404) return t.organizationNotFound(organizationCode);
  return t.invitation;
}

/** The French message of a failed direct creation (spec §8 'Users'): the server's message, else the spec's. */
export function creationFailureMessage(error: unknown): string {
  return error instanceof ApiFailure && error.body?.message ? error.body.message : t.user;
}

/** The wizard's submission: the planned invitations one after the other, or the user in one call. */
export function creationWizardActors(api: ApiClient, queryClient: QueryClient) {
  return {
    actors: {
      submitCreation: fromPromise<void, SubmitInput>(async ({ input }) => {
        try {
          if (input.plan.kind === 'user') {
            await createUserComplete(api, input.plan.body).catch((error: unknown) => {
              throw new Error(creationFailureMessage(error));
            });
            return;
          }
          for (const invitation of input.plan.invitations) {
            await createInvitation(api, invitation.organizationId, invitation.body).catch((error: unknown) => {
              throw new Error(invitationFailureMessage(error, invitation.organizationCode));
            });
          }
        } finally {
          void queryClient.invalidateQueries({ queryKey: usersKeys.all });
          void queryClient.invalidateQueries({ queryKey: invitationsKeys.all });
        }
      }),
    },
  };
}
