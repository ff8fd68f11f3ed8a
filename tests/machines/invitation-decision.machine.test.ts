import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { invitationDecisionMachine, type DecidableInvitation, type DecisionInput } from '../../src/machines/invitation-decision/invitation-decision.machine';
import { describeMachineModel } from '../model/harness';
import { approved, model, modelMachine, pending, rejected } from './invitation-decision.model';

describeMachineModel('invitation decision machine (model)', model);

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
    // The delay runs on a simulated clock: the test moves time itself instead of waiting a real second.
    const clock = new SimulatedClock();
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
      { input: { invitation: pending }, clock },
    ).start();
    actor.send({ type: 'invitation.reject' });
    actor.send({ type: 'reason.change', value: '  Dossier incomplet  ' });
    actor.send({ type: 'decision.confirm' });
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toMatchObject({ decision: 'reject', reason: 'Dossier incomplet' });
    expect(actor.getSnapshot().value).toBe('succeeded');
    expect(actor.getSnapshot().context.invitation.status).toBe('REJECTED');
    clock.increment(1000);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('offers no decision on an invitation decided elsewhere meanwhile', () => {
    const actor = createActor(modelMachine, { input: { invitation: pending } }).start();
    actor.send({ type: 'invitation.updated', invitation: approved });
    actor.send({ type: 'invitation.approve' });
    expect(actor.getSnapshot().value).toBe('idle');
  });
});
