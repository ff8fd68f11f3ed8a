// The user activation machine's model: the test replays its paths, `npm run charts` counts them and measures coverage.
import { fromPromise, type SnapshotFrom } from 'xstate';
import { userActivationMachine, type ActivationAction, type ActivationTarget } from '../../src/machines/user-activation/user-activation.machine';
import { doneEvent, errorEvent, type MachineModel, type ModelEvent } from '../model/harness';

const modelMachine = userActivationMachine.provide({
  actors: { perform: fromPromise<void, { target: ActivationTarget; action: ActivationAction }>(() => new Promise(() => {})) },
});

const active: ActivationTarget = { id: 'u1', name: 'Jeanne Martin', isActive: true };
const inactive: ActivationTarget = { ...active, isActive: false };
const all = { deactivate: true, reactivate: true, delete: true, resendInvitation: true };
const none = { deactivate: false, reactivate: false, delete: false, resendInvitation: false };

const events: ModelEvent<typeof modelMachine>[] = [
  { type: 'user.deactivate', target: active, allowed: all },
  { type: 'user.deactivate', target: inactive, allowed: all },
  { type: 'user.deactivate', target: active, allowed: none },
  { type: 'user.reactivate', target: inactive, allowed: all },
  { type: 'user.reactivate', target: active, allowed: all },
  { type: 'user.delete', target: active, allowed: all },
  { type: 'user.delete', target: active, allowed: none },
  { type: 'user.resendInvitation', target: active, allowed: all },
  { type: 'user.resendInvitation', target: inactive, allowed: all },
  { type: 'user.resendInvitation', target: active, allowed: none },
  { type: 'activation.confirm' },
  { type: 'activation.cancel' },
  { type: 'activation.dismiss' },
  doneEvent('perform'),
  errorEvent('perform', { status: 500, message: 'Erreur interne du serveur.' }),
];

export const model: MachineModel<typeof modelMachine> = {
  machine: modelMachine,
  events,
  serializeState: (s: SnapshotFrom<typeof modelMachine>) => JSON.stringify([s.value, s.context.action, s.context.target?.isActive ?? null, s.context.failure?.status ?? null]),
  describeEvent: (e) => ('target' in e ? `${e.type}(${e.target.isActive ? 'active' : 'inactive'}, ${e.allowed.deactivate ? 'allowed' : 'refused'})` : e.type),
  invariant: (s) => {
    const { action, target, allowed } = s.context;
    if (s.matches('idle')) return;
    if (!action || !target) throw new Error('an action in progress without its target');
    // §4: refused actions never reach a confirmation; deactivate only an active user, reactivate only an inactive one.
    if (!allowed[action]) throw new Error(`${action} went on although refused`);
    if (action === 'deactivate' && !target.isActive) throw new Error('deactivating an inactive user');
    if (action === 'reactivate' && target.isActive) throw new Error('reactivating an active user');
    if (action === 'resendInvitation' && !target.isActive) throw new Error('a new set-up link for an inactive user');
    if (s.matches('failed') && !s.context.failure) throw new Error('failed without a failure');
  },
};
