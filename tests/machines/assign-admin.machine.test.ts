import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { assignAdminMachine, type SubmitRequestsInput, type SubmitRequestsOutput } from '../../src/machines/assign-admin/assign-admin.machine';
import { describeMachineModel } from '../model/harness';
import { eligible, model, modelMachine } from './assign-admin.model';

describeMachineModel('assign-admin machine (model)', model);

describe('assign-admin machine', () => {
  it('submits the SIRENs of the selected user, each once, with the sender', () => {
    const inputs: SubmitRequestsInput[] = [];
    const machine = assignAdminMachine.provide({
      actors: {
        submitRequests: fromPromise<SubmitRequestsOutput, SubmitRequestsInput>(async ({ input }) => {
          inputs.push(input);
          return new Promise(() => {});
        }),
      },
    });
    const actor = createActor(machine, { input: { senderEmail: 'admin.clinique@portail.test' } }).start();
    actor.send({ type: 'user.select', user: { ...eligible, organizations: [...eligible.organizations, { code: '787441799', type: 'SIREN' }] } });
    actor.send({ type: 'request.submit' });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({ sirens: ['787441799', '469860456'], senderEmail: 'admin.clinique@portail.test', user: { id: 'u1' } });
  });

  it('ignores a change of selection and a second submit while submitting', () => {
    const actor = createActor(modelMachine, { input: { senderEmail: 'backoffice@portail.test' } }).start();
    actor.send({ type: 'user.select', user: eligible });
    actor.send({ type: 'request.submit' });
    actor.send({ type: 'selection.clear' });
    actor.send({ type: 'request.submit' });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(actor.getSnapshot().context.selected?.id).toBe('u1');
  });
});
