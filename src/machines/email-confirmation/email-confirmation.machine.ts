import { assign, setup } from 'xstate';
import { requiredActor } from '../shared/required-actor';

/** The signed-in account as the confirmation needs it: its address, and the new one waiting for it (if any). */
export interface ConfirmingAccount {
  email: string;
  pendingEmail: string | null;
}

/** Why a call failed: the HTTP status (0: the network) and the server's French message. */
export interface ConfirmationFailure {
  status: number;
  message: string | null;
}

export interface EmailConfirmationInput {
  /** The `token` of the link opened, as the address bar has it (null: none). */
  token: string | null;
}

export interface EmailConfirmationContext {
  token: string | null;
  account: ConfirmingAccount | null;
  /** The address now the account's, once confirmed. */
  confirmedEmail: string | null;
  failure: ConfirmationFailure | null;
}

export type EmailConfirmationEvent = { type: 'confirmation.confirm' } | { type: 'confirmation.retry' };

/** The shape of a link's token (32 random bytes, base64url): anything else is no link of ours, and costs no call. */
export const CONFIRMATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const asFailure = (error: unknown): ConfirmationFailure =>
  error && typeof error === 'object' && 'status' in error ? (error as ConfirmationFailure) : { status: 0, message: null };

/** A failure worth trying again: the network, or the server unavailable. A refusal (403, 404, 409) stays one. */
export const isRetryable = (failure: ConfirmationFailure | null) => failure !== null && (failure.status === 0 || failure.status >= 500);

/**
 * Confirming one's own new e-mail address from the link sent there (issue 19). The person is signed in (the
 * route is guarded): their account is read, then, if a new address waits for it, they confirm it and the
 * server checks that the link is theirs. Nothing is sent without a well-formed token; a refusal is final; a
 * failure of the network or of the server can be tried again.
 */
export const emailConfirmationMachine = setup({
  types: { context: {} as EmailConfirmationContext, events: {} as EmailConfirmationEvent, input: {} as EmailConfirmationInput },
  actors: {
    loadAccount: requiredActor<ConfirmingAccount>('loadAccount'),
    confirm: requiredActor<{ email: string }, { token: string }>('confirm'),
  },
  guards: {
    malformedToken: ({ context }) => !context.token || !CONFIRMATION_TOKEN.test(context.token),
    retryable: ({ context }) => isRetryable(context.failure),
  },
}).createMachine({
  id: 'email-confirmation',
  context: ({ input }) => ({ token: input.token, account: null, confirmedEmail: null, failure: null }),
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'malformedToken', target: 'invalidLink' }, { target: 'loading' }],
    },
    loading: {
      invoke: {
        id: 'loadAccount',
        src: 'loadAccount',
        onDone: [
          { guard: ({ event }) => event.output.pendingEmail !== null, target: 'ready', actions: assign({ account: ({ event }) => event.output, failure: null }) },
          { target: 'nothingPending', actions: assign({ account: ({ event }) => event.output, failure: null }) },
        ],
        onError: { target: 'loadFailed', actions: assign({ failure: ({ event }) => asFailure(event.error) }) },
      },
    },
    loadFailed: {
      on: { 'confirmation.retry': 'loading' },
    },
    ready: {
      on: { 'confirmation.confirm': 'confirming' },
    },
    confirming: {
      invoke: {
        id: 'confirm',
        src: 'confirm',
        input: ({ context }) => ({ token: context.token! }),
        onDone: { target: 'confirmed', actions: assign({ confirmedEmail: ({ event }) => event.output.email, failure: null }) },
        onError: { target: 'failed', actions: assign({ failure: ({ event }) => asFailure(event.error) }) },
      },
    },
    failed: {
      on: { 'confirmation.retry': { guard: 'retryable', target: 'confirming' } },
    },
    invalidLink: { type: 'final' },
    nothingPending: { type: 'final' },
    confirmed: { type: 'final' },
  },
});

export type EmailConfirmationMachine = typeof emailConfirmationMachine;
