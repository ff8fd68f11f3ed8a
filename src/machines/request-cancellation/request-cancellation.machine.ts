import { assign, setup } from 'xstate';
import { cancellationReasonSchema } from '../../../rules/validation';
import { requiredActor } from '../shared/required-actor';

/** What the cancellation needs of a request: whether the server lets the caller cancel it (allowedActions). */
export interface CancellableRequest {
  id: number;
  inviteeEmail: string;
  canCancel: boolean;
}

/** Why a cancellation failed: the HTTP status (0: the network) and the server's French message. */
export interface CancellationFailure {
  status: number;
  message: string | null;
}

export interface CancellationInput {
  request: CancellableRequest;
  /** Trimmed; null when none was given. */
  reason: string | null;
}

export interface CancellationContext {
  request: CancellableRequest | null;
  reason: string;
  /** The reason's error as the rules of the server say it (over 500 characters), shown under the field. */
  reasonError: string | null;
  failure: CancellationFailure | null;
}

export type CancellationEvent =
  | { type: 'request.cancel'; request: CancellableRequest }
  | { type: 'reason.change'; value: string }
  | { type: 'cancellation.confirm' }
  | { type: 'cancellation.abort' }
  | { type: 'cancellation.dismiss' };

const asFailure = (error: unknown): CancellationFailure =>
  error && typeof error === 'object' && 'status' in error ? (error as CancellationFailure) : { status: 0, message: null };

const reasonErrorOf = (reason: string): string | null => {
  const parsed = cancellationReasonSchema.safeParse(reason);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
};

const CLEARED = { request: null, reason: '', reasonError: null, failure: null } as const;

/**
 * 'Annuler' a request on 'Mes demandes' (issue 22): a confirmation asking an optional reason (500 characters at
 * most), the call, then done or the server's refusal (no longer pending, expired…). Offered only on a request the
 * server lets the caller cancel.
 */
export const requestCancellationMachine = setup({
  types: { context: {} as CancellationContext, events: {} as CancellationEvent },
  actors: {
    cancel: requiredActor<void, CancellationInput>('cancel'),
  },
  guards: {
    canCancel: ({ event }) => event.type === 'request.cancel' && event.request.canCancel,
    isReasonValid: ({ context }) => reasonErrorOf(context.reason) === null,
  },
}).createMachine({
  id: 'request-cancellation',
  context: { ...CLEARED },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'request.cancel': { guard: 'canCancel', target: 'askingReason', actions: assign(({ event }) => ({ ...CLEARED, request: event.request })) },
      },
    },
    askingReason: {
      on: {
        'reason.change': { actions: assign(({ event }) => ({ reason: event.value, reasonError: reasonErrorOf(event.value) })) },
        'cancellation.confirm': [{ guard: 'isReasonValid', target: 'cancelling' }, { actions: assign(({ context }) => ({ reasonError: reasonErrorOf(context.reason) })) }],
        'cancellation.abort': { target: 'idle', actions: assign({ ...CLEARED }) },
      },
    },
    cancelling: {
      invoke: {
        id: 'cancel',
        src: 'cancel',
        input: ({ context }) => ({ request: context.request!, reason: cancellationReasonSchema.parse(context.reason) }),
        onDone: 'done',
        onError: { target: 'failed', actions: assign({ failure: ({ event }) => asFailure(event.error) }) },
      },
    },
    done: {
      on: { 'cancellation.dismiss': { target: 'idle', actions: assign({ ...CLEARED }) } },
    },
    failed: {
      on: {
        'cancellation.confirm': { target: 'cancelling', actions: assign({ failure: null }) },
        'cancellation.dismiss': { target: 'idle', actions: assign({ ...CLEARED }) },
      },
    },
  },
});

export type RequestCancellationMachine = typeof requestCancellationMachine;
