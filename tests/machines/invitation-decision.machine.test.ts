import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import {
  invitationDecisionMachine,
  type DecidableInvitation,
  type DecisionFailure,
  type DecisionInput,
} from '../../src/machines/invitation-decision/invitation-decision.machine';
import { describeMachineModel, doneEvent, errorEvent, type ModelEvent } from '../model/harness';

const never = fromPromise<DecidableInvitation, DecisionInput>(() => new Promise(() => {}));
const modelMachine = invitationDecisionMachine.provide({ actors: { decide: never } });

const pending: DecidableInvitation = { id: 7, inviteeEmail: 'jeanne.martin@clinique.fr', status: 'PENDING', invitationType: 'NEW_ADMIN' };
const approved: DecidableInvitation = { ...pending, status: 'APPROVED' };
const rejected: DecidableInvitation = { ...pending, status: 'REJECTED' };
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

describeMachineModel('invitation decision machine (model)', {
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
});

describe('invitation decision machine', () => {
  it('refuses to confirm a rejection with a reason of 9 characters, accepts 10 after trimming', () => {
    const actor = createActor(modelMachine, { input: { invitation: pending } }).start();
    actor.send({ type: 'invitation.reject' });
    actor.send({ type: 'reason.change', value: '  123456789  ' });
    actor.send({ type: 'decision.confirm' });
    expect(actor.getSnapshot().value).toBe('confirmingRejection');
    actor.send({ type: 'reason.change', value: '  1234567890  ' });
    actor.send({ type: 'decision.confirm' });
    expect(actor.getSnapshot().value).toBe('processing');
  });

  it('sends the trimmed reason and, after success, finishes 1 s later', async () => {
    let sent: DecisionInput | null = null;
    const actor = createActor(
      invitationDecisionMachine.provide({
        actors: {
          decide: fromPromise<DecidableInvitation, DecisionInput>(async ({ input }) => {
            sent = input;
            return rejected;
          }),
        },
        delays: {},
      }),
      { input: { invitation: pending } },
    ).start();
    actor.send({ type: 'invitation.reject' });
    actor.send({ type: 'reason.change', value: '  Dossier incomplet  ' });
    actor.send({ type: 'decision.confirm' });
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toMatchObject({ decision: 'reject', reason: 'Dossier incomplet' });
    expect(actor.getSnapshot().value).toBe('succeeded');
    expect(actor.getSnapshot().context.invitation.status).toBe('REJECTED');
    await new Promise((r) => setTimeout(r, 1050));
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('offers no decision on an invitation decided elsewhere meanwhile', () => {
    const actor = createActor(modelMachine, { input: { invitation: pending } }).start();
    actor.send({ type: 'invitation.updated', invitation: approved });
    actor.send({ type: 'invitation.approve' });
    expect(actor.getSnapshot().value).toBe('idle');
  });
});
