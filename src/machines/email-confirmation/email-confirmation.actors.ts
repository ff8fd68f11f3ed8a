import { fromPromise } from 'xstate';
import { ApiFailure, type ApiClient } from '../../api/client';
import { confirmEmailChange } from '../../api/account';
import { fetchCurrentUser } from '../../api/users';
import type { ConfirmationFailure, ConfirmingAccount } from './email-confirmation.machine';

const failureOf = (error: unknown): ConfirmationFailure => (error instanceof ApiFailure ? { status: error.status, message: error.body?.message ?? null } : { status: 0, message: null });

/** The confirmation's API calls: the signed-in account, read afresh (not the session's cached profile), and the confirmation. */
export function emailConfirmationActors(api: ApiClient) {
  return {
    actors: {
      loadAccount: fromPromise<ConfirmingAccount>(async () => {
        try {
          const me = await fetchCurrentUser(api);
          return { email: me.email, pendingEmail: me.pendingEmail };
        } catch (error) {
          throw failureOf(error);
        }
      }),
      confirm: fromPromise<{ email: string }, { token: string }>(async ({ input }) => {
        try {
          return await confirmEmailChange(api, input.token);
        } catch (error) {
          throw failureOf(error);
        }
      }),
    },
  };
}
