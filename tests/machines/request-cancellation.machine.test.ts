import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { requestCancellationMachine, type CancellationInput } from '../../src/machines/request-cancellation/request-cancellation.machine';
import { describeMachineModel } from '../model/harness';
import { model } from './request-cancellation.model';

describeMachineModel('request cancellation machine (model)', model);

describe('the cancellation sent', () => {
  it('sends the trimmed reason, or none for a blank one', async () => {
    const sent: CancellationInput[] = [];
    const machine = requestCancellationMachine.provide({ actors: { cancel: fromPromise<void, CancellationInput>(async ({ input }) => void sent.push(input)) } });
    const request = { id: 7, inviteeEmail: 'a@b.fr', canCancel: true };
    for (const value of ['  Plus nécessaire.  ', '   ']) {
      const actor = createActor(machine).start();
      actor.send({ type: 'request.cancel', request });
      actor.send({ type: 'reason.change', value });
      actor.send({ type: 'cancellation.confirm' });
      await waitFor(actor, (s) => s.matches('done'));
    }
    expect(sent).toEqual([
      { request, reason: 'Plus nécessaire.' },
      { request, reason: null },
    ]);
  });

  it('keeps the confirmation open, saying why, while the reason is over 500 characters', () => {
    const actor = createActor(requestCancellationMachine).start();
    actor.send({ type: 'request.cancel', request: { id: 7, inviteeEmail: 'a@b.fr', canCancel: true } });
    actor.send({ type: 'reason.change', value: 'x'.repeat(501) });
    actor.send({ type: 'cancellation.confirm' });
    expect(actor.getSnapshot().value).toBe('askingReason');
    expect(actor.getSnapshot().context.reasonError).toBe('Le motif ne peut pas dépasser 500 caractères.');
  });
});
