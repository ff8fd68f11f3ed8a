// The assign-admin machine's model: the test replays its paths, `npm run charts` counts them and measures coverage.
import { fromPromise, type SnapshotFrom } from 'xstate';
import { assignAdminMachine, type AssignCandidate, type SubmitRequestsInput, type SubmitRequestsOutput } from '../../src/machines/assign-admin/assign-admin.machine';
import { sirensOfOrganizations } from '../../src/domain/admin-request';
import { doneEvent, errorEvent, type MachineModel, type ModelEvent } from '../model/harness';

const never = fromPromise<SubmitRequestsOutput, SubmitRequestsInput>(() => new Promise(() => {}));
export const modelMachine = assignAdminMachine.provide({ actors: { submitRequests: never } });

export const eligible: AssignCandidate = {
  id: 'u1',
  firstName: 'Jeanne',
  lastName: 'Martin',
  email: 'jeanne.martin@clinique.fr',
  jobTitle: 'Comptable',
  phoneNumber: null,
  roles: ['COMPTABLE'],
  organizations: [
    { code: '78744179900014', type: 'SIRET' },
    { code: '469860456', type: 'SIREN' },
  ],
  ineligibility: null,
};
const withoutOrganization: AssignCandidate = { ...eligible, id: 'u2', organizations: [] };
const pending: AssignCandidate = { ...eligible, id: 'u3', ineligibility: 'pendingRequest' };
const internal: AssignCandidate = { ...eligible, id: 'u4', ineligibility: 'internalRole' };

const events: ModelEvent<typeof modelMachine>[] = [
  { type: 'user.select', user: eligible },
  { type: 'user.select', user: withoutOrganization },
  { type: 'user.select', user: pending },
  { type: 'user.select', user: internal },
  { type: 'selection.clear' },
  { type: 'request.submit' },
  doneEvent('submitRequests', { created: 2, failed: 0 }),
  doneEvent('submitRequests', { created: 1, failed: 1 }),
  doneEvent('submitRequests', { created: 0, failed: 2 }),
  errorEvent('submitRequests', new Error('Network error: Unable to connect to the server. Please check your connection.')),
];

export const model: MachineModel<typeof modelMachine> = {
  machine: modelMachine,
  input: { senderEmail: 'backoffice@portail.test' },
  events,
  serializeState: (s: SnapshotFrom<typeof modelMachine>) => JSON.stringify([s.value, s.context.selected?.id ?? null, s.context.error?.kind ?? null, s.context.outcome]),
  describeEvent: (e) => ('user' in e ? `${e.type}(${e.user.ineligibility ?? (e.user.organizations.length ? 'eligible' : 'no organization')})` : 'output' in e ? `${e.type}(${JSON.stringify(e.output)})` : e.type),
  invariant: (s, last) => {
    const { selected, error, outcome } = s.context;
    // §2, §5: only an eligible user is ever selected, and only they are submitted.
    if (selected && selected.ineligibility !== null) throw new Error(`an ineligible user is selected (${selected.ineligibility})`);
    if (s.matches('browsing') && selected) throw new Error('browsing with a selection');
    if ((s.matches('selected') || s.matches('submitting') || s.matches('submitted')) && !selected) throw new Error(`${String(s.value)} without a selection`);
    // §5: never submitting for a user without any SIREN; that attempt says so.
    if (s.matches('submitting') && sirensOfOrganizations(selected!.organizations).length === 0) throw new Error('submitting without a SIREN');
    if (last?.type === 'request.submit' && selected && sirensOfOrganizations(selected.organizations).length === 0 && error?.kind !== 'noOrganization') {
      throw new Error('a submission without organization was not refused with its message');
    }
    // §8: success means at least one request created; the screen leaves with the counts.
    if (s.matches('submitted') && (!outcome || outcome.created < 1)) throw new Error('submitted without any request created');
    if (s.matches('submitting') && error) throw new Error('an old error stays shown while submitting');
    if (last?.type === 'xstate.done.actor.submitRequests' && s.matches('selected') && error?.kind !== 'noneCreated') throw new Error('no request created, not said');
    if (last?.type === 'xstate.error.actor.submitRequests' && (error?.kind !== 'unexpected' || !error.message)) throw new Error('an unexpected failure without its message');
  },
};
