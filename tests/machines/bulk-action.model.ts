// The bulk-action machine's model: the test replays its paths, `npm run charts` counts them and measures coverage.
import { fromPromise, type SnapshotFrom } from 'xstate';
import { bulkActionMachine, type BulkActionKind, type BulkFailure, type BulkJob, type BulkStartInput } from '../../src/machines/bulk-action/bulk-action.machine';
import { selectionCount } from '../../src/domain/user-selection';
import { doneEvent, errorEvent, type MachineModel, type ModelEvent } from '../model/harness';

const modelMachine = bulkActionMachine.provide({
  actors: {
    start: fromPromise<BulkJob, BulkStartInput>(() => new Promise(() => {})),
    poll: fromPromise<BulkJob, { id: string }>(() => new Promise(() => {})),
  },
});

const A = '0b6f4a52-1c1e-4d7a-9c59-0c2f6a0e0001';
const B = '0b6f4a52-1c1e-4d7a-9c59-0c2f6a0e0002';
const page = [A, B];
const job = (status: BulkJob['status'], processed: number): BulkJob => ({
  id: '5d1c2b3a-0000-4000-8000-00000000b001',
  action: 'deactivate',
  status,
  total: 2,
  processed,
  succeeded: processed === 2 ? 1 : processed,
  refusals: processed === 2 ? [{ userId: B, name: 'Camille Essai', email: 'camille.essai@exemple-test.fr', reason: 'Cet utilisateur est déjà désactivé.' }] : [],
});
const refused: BulkFailure = { status: 403, message: "Vous n'avez pas le droit de supprimer définitivement des utilisateurs." };
const unreachable: BulkFailure = { status: 0, message: null };

const ALL: BulkActionKind[] = ['deactivate', 'reactivate', 'resendInvitation', 'delete'];

const events: ModelEvent<typeof modelMachine>[] = [
  { type: 'selection.toggle', id: A, pageIds: page },
  { type: 'selection.toggle', id: B, pageIds: page },
  { type: 'selection.togglePage', pageIds: page },
  { type: 'selection.selectAll', filters: { roleCode: 'COMPTABLE', includeInactive: true }, total: 40 },
  { type: 'selection.clear' },
  { type: 'bulk.choose', action: 'deactivate' },
  { type: 'bulk.choose', action: 'delete' },
  { type: 'bulk.confirm' },
  { type: 'bulk.cancel' },
  { type: 'bulk.retry' },
  { type: 'bulk.dismiss' },
  doneEvent('start', job('running', 0)),
  doneEvent('start', job('completed', 2)),
  errorEvent('start', refused),
  errorEvent('start', unreachable),
  doneEvent('poll', job('running', 1)),
  doneEvent('poll', job('completed', 2)),
  errorEvent('poll', unreachable),
];

export const model: MachineModel<typeof modelMachine> = {
  machine: modelMachine,
  inputs: { backOffice: { allowed: ALL }, organizationAdministrator: { allowed: ['deactivate', 'reactivate', 'resendInvitation'] } },
  events,
  serializeState: (s: SnapshotFrom<typeof modelMachine>) =>
    JSON.stringify([s.value, s.context.allowed.length, s.context.selection.kind === 'ids' ? [...s.context.selection.ids].sort() : selectionCount(s.context.selection), s.context.action, s.context.job?.processed ?? null, s.context.failure?.status ?? null]),
  describeEvent: (e) =>
    'action' in e ? `${e.type}(${e.action})` : 'id' in e ? `${e.type}(${e.id === A ? 'A' : 'B'})` : 'output' in e && e.output ? `${e.type}(${(e.output as BulkJob).status})` : 'error' in e ? `${e.type}(${(e.error as BulkFailure).status})` : e.type,
  invariant: (s, last) => {
    const { allowed, selection, action, job: current, failure } = s.context;
    const count = selectionCount(selection);
    if (s.matches('idle') && count !== 0) throw new Error('idle with people selected');
    if (!s.matches('idle') && !s.matches('report') && !s.matches('interrupted') && count === 0) throw new Error('an action without anyone selected');
    // Only an action the caller may ask for is confirmed, then started.
    if (['confirming', 'starting', 'running', 'failed'].some((state) => s.matches(state as never)) && (action === null || !allowed.includes(action))) throw new Error('an action not allowed');
    if (s.matches('running') && current?.status !== 'running') throw new Error('running without a running job');
    if (s.matches('report') && current?.status !== 'completed') throw new Error('a report before the job has completed');
    if ((s.matches('failed') || s.matches('interrupted')) && failure === null) throw new Error('failed without a failure');
    if (s.matches('failed') && current !== null) throw new Error('a failed start with a job');
    // Cancelling the confirmation keeps the selection and starts nothing.
    if (last?.type === 'bulk.cancel' && (!s.matches('selecting') || action !== null || current !== null)) throw new Error('cancel did not go back to the selection');
    if (last?.type === 'selection.clear' && !s.matches('idle')) throw new Error('clear left a selection');
  },
};
