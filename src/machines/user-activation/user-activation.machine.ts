import { assign, setup } from 'xstate';
import { requiredActor } from '../shared/required-actor';

/** Deactivate, reactivate or delete for good (spec §4, §8), or send a new set-up link (issue 22). */
export type ActivationAction = 'deactivate' | 'reactivate' | 'delete' | 'resendInvitation';

export interface ActivationTarget {
  id: string;
  name: string;
  isActive: boolean;
}

/** Why an action failed: the HTTP status (0: the network) and the server's message. */
export interface ActivationFailure {
  status: number;
  message: string | null;
}

export interface ActivationContext {
  target: ActivationTarget | null;
  action: ActivationAction | null;
  failure: ActivationFailure | null;
  /** Whether the actor may do each action on the target: decided by the screen from the rules of §4 and §6. */
  allowed: Record<ActivationAction, boolean>;
}

export type ActivationEvent =
  | { type: 'user.deactivate'; target: ActivationTarget; allowed: Record<ActivationAction, boolean> }
  | { type: 'user.reactivate'; target: ActivationTarget; allowed: Record<ActivationAction, boolean> }
  | { type: 'user.delete'; target: ActivationTarget; allowed: Record<ActivationAction, boolean> }
  | { type: 'user.resendInvitation'; target: ActivationTarget; allowed: Record<ActivationAction, boolean> }
  | { type: 'activation.confirm' }
  | { type: 'activation.cancel' }
  | { type: 'activation.dismiss' };

const NONE_ALLOWED: Record<ActivationAction, boolean> = { deactivate: false, reactivate: false, delete: false, resendInvitation: false };

const asFailure = (error: unknown): ActivationFailure =>
  error && typeof error === 'object' && 'status' in error ? (error as ActivationFailure) : { status: 0, message: null };

type Choice = { target: ActivationTarget; allowed: Record<ActivationAction, boolean>; action: ActivationAction };
const choice = (action: ActivationAction) => ({ event }: { event: { target: ActivationTarget; allowed: Record<ActivationAction, boolean> } }): Choice => ({
  target: event.target,
  allowed: event.allowed,
  action,
});

/**
 * The users list's activation workflow (and the profile's new set-up link): a confirmation, the call, then
 * success or failure. An action is possible only when allowed (not oneself; not an admin-role holder for
 * organization users; permanent delete for back-office holders of USER_DELETE and B2C_USER_DISABLE; a new
 * link for an active user who has never signed in) and when it fits the target's state.
 */
export const userActivationMachine = setup({
  types: { context: {} as ActivationContext, events: {} as ActivationEvent },
  actors: {
    perform: requiredActor<void, { target: ActivationTarget; action: ActivationAction }>('perform'),
  },
  actions: {
    choose: assign((_, choice: Choice) => ({ ...choice, failure: null })),
  },
  guards: {
    canDeactivate: ({ event }) => event.type === 'user.deactivate' && event.allowed.deactivate && event.target.isActive,
    canReactivate: ({ event }) => event.type === 'user.reactivate' && event.allowed.reactivate && !event.target.isActive,
    canDelete: ({ event }) => event.type === 'user.delete' && event.allowed.delete,
    // Only to an active user (the server offers it only to one who has never signed in).
    canResendInvitation: ({ event }) => event.type === 'user.resendInvitation' && event.allowed.resendInvitation && event.target.isActive,
  },
}).createMachine({
  id: 'user-activation',
  context: { target: null, action: null, failure: null, allowed: NONE_ALLOWED },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'user.deactivate': { guard: 'canDeactivate', target: 'confirming', actions: { type: 'choose', params: choice('deactivate') } },
        'user.reactivate': { guard: 'canReactivate', target: 'confirming', actions: { type: 'choose', params: choice('reactivate') } },
        'user.delete': { guard: 'canDelete', target: 'confirming', actions: { type: 'choose', params: choice('delete') } },
        'user.resendInvitation': { guard: 'canResendInvitation', target: 'confirming', actions: { type: 'choose', params: choice('resendInvitation') } },
      },
    },
    confirming: {
      on: {
        'activation.confirm': 'processing',
        'activation.cancel': { target: 'idle', actions: assign({ target: null, action: null }) },
      },
    },
    processing: {
      invoke: {
        id: 'perform',
        src: 'perform',
        input: ({ context }) => ({ target: context.target!, action: context.action! }),
        onDone: 'succeeded',
        onError: { target: 'failed', actions: assign({ failure: ({ event }) => asFailure(event.error) }) },
      },
    },
    succeeded: {
      on: { 'activation.dismiss': { target: 'idle', actions: assign({ target: null, action: null }) } },
    },
    failed: {
      on: { 'activation.dismiss': { target: 'idle', actions: assign({ target: null, action: null, failure: null }) } },
    },
  },
});

export type UserActivationMachine = typeof userActivationMachine;
