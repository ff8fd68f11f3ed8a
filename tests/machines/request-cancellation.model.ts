// The request cancellation machine's model ('Mes demandes', issue 22): the test replays its paths, `npm run charts`
// counts them and measures coverage.
import { fromPromise, type SnapshotFrom } from 'xstate';
import { requestCancellationMachine, type CancellableRequest, type CancellationInput } from '../../src/machines/request-cancellation/request-cancellation.machine';
import { doneEvent, errorEvent, type MachineModel, type ModelEvent } from '../model/harness';

const modelMachine = requestCancellationMachine.provide({
  actors: { cancel: fromPromise<void, CancellationInput>(() => new Promise(() => {})) },
});

const pending: CancellableRequest = { id: 36, inviteeEmail: 'thomas.guerin@exemple.fr', canCancel: true };
const decided: CancellableRequest = { ...pending, canCancel: false };

const events: ModelEvent<typeof modelMachine>[] = [
  { type: 'request.cancel', request: pending },
  { type: 'request.cancel', request: decided },
  { type: 'reason.change', value: 'La personne a quitté la clinique.' },
  { type: 'reason.change', value: 'x'.repeat(501) },
  { type: 'cancellation.confirm' },
  { type: 'cancellation.abort' },
  { type: 'cancellation.dismiss' },
  doneEvent('cancel'),
  errorEvent('cancel', { status: 409, message: "Cette demande n'est plus en attente : elle ne peut plus être annulée." }),
];

export const model: MachineModel<typeof modelMachine> = {
  machine: modelMachine,
  events,
  serializeState: (s: SnapshotFrom<typeof modelMachine>) =>
    JSON.stringify([s.value, s.context.request?.id ?? null, s.context.reason.length, s.context.reasonError !== null, s.context.failure?.status ?? null]),
  describeEvent: (e) => ('request' in e ? `${e.type}(${e.request.canCancel ? 'cancellable' : 'decided'})` : 'value' in e ? `${e.type}(${e.value.length})` : e.type),
  invariant: (s) => {
    const { request, reason, reasonError, failure } = s.context;
    if (s.matches('idle')) {
      if (request !== null || reason !== '' || failure !== null) throw new Error('idle with a request or a failure');
      return;
    }
    // Only a request the server lets the caller cancel is ever asked about or sent.
    if (!request?.canCancel) throw new Error('a request the server would refuse went on');
    // Nothing is sent with a reason over 500 characters.
    if (s.matches('cancelling') && (reason.trim().length > 500 || reasonError !== null)) throw new Error('sent with a reason too long');
    if (s.matches('failed') !== (failure !== null)) throw new Error('a failure outside the failed state, or none in it');
  },
};
