// The invitation decision machine's model: the test replays its paths, `npm run charts` counts them and measures coverage.
import { fromPromise, type SnapshotFrom } from 'xstate';
import { invitationDecisionMachine, type DecidableInvitation, type DecisionFailure, type DecisionInput } from '../../src/machines/invitation-decision/invitation-decision.machine';
import { doneEvent, errorEvent, type MachineModel, type ModelEvent } from '../model/harness';

const never = fromPromise<DecidableInvitation, DecisionInput>(() => new Promise(() => {}));
export const modelMachine = invitationDecisionMachine.provide({ actors: { decide: never } });

export const pending: DecidableInvitation = { id: 7, inviteeEmail: 'jeanne.martin@clinique.fr', status: 'PENDING', invitationType: 'NEW_ADMIN' };
export const approved: DecidableInvitation = { ...pending, status: 'APPROVED' };
export const rejected: DecidableInvitation = { ...pending, status: 'REJECTED' };
const conflict: DecisionFailure = { status: 409, statusText: 'Conflict', message: 'Cette demande a déjà été traitée.', reasonError: null };

const events: ModelEvent<typeof modelMachine>[] = [
  { type: 'invitation.approve' },
  { type: 'invitation.reject' },
  { type: 'invitation.updated', invitation: approved },
  { type: 'reason.change', value: '123456789' },
  { type: 'reason.change', value: ' 1234567890 ' },
  { type: 'decision.confirm' },
  { type: 'decision.cancel' },
  { type: 'decision.dismiss' },
  doneEvent('decide', approved),
  doneEvent('decide', rejected),
  errorEvent('decide', conflict),
];

export const model: MachineModel<typeof modelMachine> = {
  machine: modelMachine,
  inputs: { pending: { invitation: pending }, alreadyDecided: { invitation: rejected } },
  events,
  serializeState: (s: SnapshotFrom<typeof modelMachine>) => JSON.stringify([s.value, s.context.invitation.status, s.context.decision, s.context.reason.trim().length >= 10, s.context.failure?.status ?? null]),
  describeEvent: (e) => ('value' in e ? `${e.type}(${e.value.trim().length} chars)` : 'invitation' in e ? `${e.type}(${e.invitation.status})` : e.type),
  // What the spec promises whatever the path.
  invariant: (s, last) => {
    // §4: only a PENDING invitation can be decided.
    if (['confirmingApproval', 'confirmingRejection'].some((state) => s.matches(state as never)) && s.context.invitation.status !== 'PENDING') {
      throw new Error('confirming a decision on an invitation that is not pending');
    }
    // §5: a rejection is sent only with a reason of at least 10 characters after trimming.
    if (s.matches('processing') && s.context.decision === 'reject' && s.context.reason.trim().length < 10) throw new Error('rejecting with a short reason');
    if (s.matches('failed') && !s.context.failure) throw new Error('failed without a failure');
    if (last?.type === 'decision.cancel' && !s.matches('idle')) throw new Error('cancel did not go back to idle');
  },
};
