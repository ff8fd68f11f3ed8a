import { assign, setup } from 'xstate';
import { rejectionReasonSchema } from '../../../rules/validation';
import { requiredActor } from '../shared/required-actor';

/** What the decision needs of an invitation. */
export interface DecidableInvitation {
  id: number;
  inviteeEmail: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED' | 'EXPIRED' | 'CANCELLED';
  invitationType: 'NEW_ADMIN' | 'ROLE_ASSIGNMENT';
}

export type Decision = 'approve' | 'reject';

/** Why a decision failed: the HTTP status (0 for the network), the server's text, and its error on the reason if any. */
export interface DecisionFailure {
  status: number;
  statusText: string;
  message: string | null;
  reasonError: string | null;
}

export interface DecisionInput {
  invitation: DecidableInvitation;
  decision: Decision;
  reason: string;
}

export interface DecisionContext {
  invitation: DecidableInvitation;
  decision: Decision | null;
  reason: string;
  failure: DecisionFailure | null;
}

export type DecisionEvent =
  | { type: 'invitation.approve' }
  | { type: 'invitation.reject' }
  | { type: 'invitation.updated'; invitation: DecidableInvitation }
  | { type: 'reason.change'; value: string }
  | { type: 'decision.confirm' }
  | { type: 'decision.cancel' }
  | { type: 'decision.dismiss' };

/** Spec §4: after a decision on the detail screen, back to /admin after 1 s. */
export const REDIRECT_DELAY_MS = 1000;

const asFailure = (error: unknown): DecisionFailure =>
  error && typeof error === 'object' && 'status' in error
    ? (error as DecisionFailure)
    : { status: 0, statusText: '', message: null, reasonError: null };

/**
 * Approving or rejecting one invitation (spec §2 /admin and /admin/{id}, §4, §5): a confirmation,
 * a reason of at least 10 characters for a rejection, the call, then success or failure.
 * Only a PENDING invitation can be decided.
 */
export const invitationDecisionMachine = setup({
  types: {
    context: {} as DecisionContext,
    events: {} as DecisionEvent,
    input: {} as { invitation: DecidableInvitation },
  },
  actors: {
    decide: requiredActor<DecidableInvitation, DecisionInput>('decide'),
  },
  guards: {
    isPending: ({ context }) => context.invitation.status === 'PENDING',
    isDecided: ({ context }) => context.invitation.status !== 'PENDING',
    isReasonValid: ({ context }) => rejectionReasonSchema.safeParse(context.reason).success,
  },
}).createMachine({
  id: 'invitation-decision',
  context: ({ input }) => ({ invitation: input.invitation, decision: null, reason: '', failure: null }),
  initial: 'idle',
  on: {
    'invitation.updated': { actions: assign({ invitation: ({ event }) => event.invitation }) },
  },
  states: {
    idle: {
      on: {
        'invitation.approve': { guard: 'isPending', target: 'confirmingApproval' },
        'invitation.reject': { guard: 'isPending', target: 'confirmingRejection' },
      },
    },
    confirmingApproval: {
      entry: assign({ decision: 'approve', failure: null }),
      // Decided elsewhere meanwhile (another tab, another person): nothing left to confirm.
      always: { guard: 'isDecided', target: 'idle' },
      on: {
        'decision.confirm': 'processing',
        'decision.cancel': 'idle',
      },
    },
    confirmingRejection: {
      entry: assign({ decision: 'reject', reason: '', failure: null }),
      always: { guard: 'isDecided', target: 'idle' },
      on: {
        'reason.change': { actions: assign({ reason: ({ event }) => event.value }) },
        'decision.confirm': { guard: 'isReasonValid', target: 'processing' },
        'decision.cancel': 'idle',
      },
    },
    processing: {
      invoke: {
        id: 'decide',
        src: 'decide',
        input: ({ context }) => ({ invitation: context.invitation, decision: context.decision ?? 'approve', reason: context.reason.trim() }),
        onDone: { target: 'succeeded', actions: assign({ invitation: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ failure: ({ event }) => asFailure(event.error) }) },
      },
    },
    succeeded: {
      after: { [REDIRECT_DELAY_MS]: 'finished' },
    },
    failed: {
      on: { 'decision.dismiss': 'idle' },
    },
    finished: { type: 'final' },
  },
});

export type InvitationDecisionMachine = typeof invitationDecisionMachine;
