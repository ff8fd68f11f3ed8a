// The creation wizard's model: five people (normal and admin mode, back-office and member administrator,
// a request without a sender), the events each step offers, and what must hold in every snapshot.
import { fromPromise, type SnapshotFrom } from 'xstate';
import { creationWizardMachine, type SubmitInput, type WizardEvent, type WizardInput } from '../../src/machines/creation-wizard/creation-wizard.machine';
import { detailsValid, planSubmission, REQUIRED_DETAILS, stepBlock, type WizardDetailField, type WizardRole } from '../../src/domain/user-create';
import { MAX_ROLES, type ChosenSiret } from '../../src/domain/user-edit';
import { doneEvent, errorEvent, type MachineModel, type ModelEvent } from '../model/harness';

const never = fromPromise<void, SubmitInput>(() => new Promise(() => {}));
export const wizardModelMachine = creationWizardMachine.provide({ actors: { submitCreation: never } });
type Machine = typeof wizardModelMachine;
type Snapshot = SnapshotFrom<Machine>;
type Event = ModelEvent<Machine>;

// Ids are UUIDs, as the API gives them (the UI tests answer these organizations through the fake API, which
// checks its answers against the contract); events name them by a short label.
export const sirenA = { id: '00000000-0000-4000-8000-00000000a000', code: '787441799', name: 'Clinique des Tilleuls' };
export const sirenB = { id: '00000000-0000-4000-8000-00000000b000', code: '469860456', name: 'EHPAD Les Glycines' };
export const a1: ChosenSiret = { id: '00000000-0000-4000-8000-00000000a001', code: '78744179900014', name: 'Clinique des Tilleuls - Lyon', sirenId: sirenA.id };
export const a2: ChosenSiret = { id: '00000000-0000-4000-8000-00000000a002', code: '78744179900022', name: 'Clinique des Tilleuls - Villeurbanne', sirenId: sirenA.id };
export const b1: ChosenSiret = { id: '00000000-0000-4000-8000-00000000b001', code: '46986045600018', name: 'EHPAD Les Glycines - Nantes', sirenId: sirenB.id };
const LABELS: Record<string, string> = { [sirenA.id]: 'siren-a', [sirenB.id]: 'siren-b', [a1.id]: 'siret-a1', [a2.id]: 'siret-a2', [b1.id]: 'siret-b1' };
const label = (id: string) => LABELS[id] ?? id;

const role = (id: number, code: string, type: 'INTERNAL' | 'EXTERNAL' = 'EXTERNAL'): WizardRole => ({ id, code, name: code, type });
/** Six EXTERNAL roles (one more than allowed), the member-administrator role and the back-office one. */
export const allRoles: WizardRole[] = [1, 2, 3, 4, 5, 6].map((id) => role(id, `ROLE_${id}`)).concat(role(9, 'ADMIN_ADHERENT', 'INTERNAL'), role(10, 'ADMIN_OPCO', 'INTERNAL'));

/** Valid values, filled in this order; an invalid email to come back from. */
export const validDetails: Record<WizardDetailField, string> = {
  firstName: 'Zoé',
  lastName: "N'Diaye-Lefèvre",
  email: 'zoe.ndiaye@exemple.fr',
  jobTitle: 'Responsable RH & paie',
  phoneNumber: '',
  mobilePhone: '',
  street: '12 rue des Lilas',
  postalCode: '69003',
  city: 'Lyon',
};
const INVALID_EMAIL = 'zoe.ndiaye@exemple';

export const wizardInputs: Record<string, WizardInput> = {
  userByBackOffice: { mode: 'user', lockSirets: false, senderEmail: 'backoffice@portail.test', offeredSirens: null },
  userByMemberAdmin: { mode: 'user', lockSirets: false, senderEmail: 'admin.clinique@portail.test', offeredSirens: [sirenA, sirenB] },
  adminByBackOffice: { mode: 'admin', lockSirets: true, senderEmail: 'backoffice@portail.test', offeredSirens: null },
  adminByMemberAdmin: { mode: 'admin', lockSirets: true, senderEmail: 'admin.clinique@portail.test', offeredSirens: [sirenA] },
  adminWithoutSender: { mode: 'admin', lockSirets: true, senderEmail: null, offeredSirens: [sirenA] },
};

const detailsEvents = (s: Snapshot, withInvalid: boolean): Event[] => {
  const details = s.context.draft.details;
  const next = REQUIRED_DETAILS.find((field) => details[field].trim() === '');
  if (next) return [{ type: 'details.change', field: next, value: validDetails[next] }];
  return withInvalid ? [{ type: 'details.change', field: 'email', value: details.email === INVALID_EMAIL ? validDetails.email : INVALID_EMAIL }] : [];
};

/** Roles are toggled in order: the first one not chosen (refused beyond 5) and the last one chosen. */
const roleLimitEvents = (s: Snapshot): Event[] => {
  const offered = s.context.offeredRoles ?? [];
  const chosen = s.context.draft.roles;
  const events: Event[] = [];
  const firstFree = offered.find((r) => !chosen.some((c) => c.id === r.id));
  if (firstFree) events.push({ type: 'role.toggle', roleId: firstFree.id });
  if (chosen.length) events.push({ type: 'role.toggle', roleId: chosen[chosen.length - 1]!.id });
  return events;
};

const move: Event[] = [{ type: 'wizard.next' }, { type: 'wizard.back' }, { type: 'wizard.submit' }];
const offer: Event = { type: 'roles.offered', roles: allRoles };
const outcomes: Event[] = [doneEvent('submitCreation'), errorEvent('submitCreation', new Error("Erreur lors de l'envoi de l'invitation."))];

type Step = 'details' | 'sirens' | 'sirets' | 'roles';
/** What each person of the model tries on each step: each explores its own part, so the graph stays small and every edge is walked. */
const scenarios: Record<string, (s: Snapshot) => Partial<Record<Step, Event[]>>> = {
  // The SIREN and SIRET choices of a direct creation, invalid details, a role that is not offered.
  'user:backoffice@portail.test': (s) => ({
    details: detailsEvents(s, true),
    sirens: [
      { type: 'siren.toggle', siren: sirenA },
      { type: 'siren.toggle', siren: sirenB },
      { type: 'siren.choose', siren: sirenA },
      { type: 'sirens.selectAll', sirens: [sirenA, sirenB] },
      { type: 'sirens.deselectAll', sirenIds: [sirenA.id, sirenB.id] },
    ],
    sirets: [
      { type: 'siret.toggle', siret: b1 },
      { type: 'sirets.selectAll', sirenId: sirenA.id, sirets: [a1, a2] },
      { type: 'sirets.clear', sirenId: sirenA.id },
      { type: 'sirets.loaded', sirenId: sirenA.id, sirets: [a1, a2] },
    ],
    // Submitting without a role is refused (the roles themselves are the next person's part).
    roles: [offer],
  }),
  // The 1 to 5 roles of a direct creation.
  'user:admin.clinique@portail.test': (s) => ({
    details: detailsEvents(s, false),
    sirens: [{ type: 'siren.toggle', siren: sirenA }],
    sirets: [{ type: 'siret.toggle', siret: a1 }],
    roles: [offer, ...roleLimitEvents(s), ...(s.context.draft.roles.length === 0 ? [{ type: 'role.toggle', roleId: 9 } as const] : [])],
  }),
  // One SIREN by radio, its SIRETs locked, the member-administrator role chosen once offered.
  'admin:backoffice@portail.test': (s) => ({
    details: detailsEvents(s, false),
    sirens: [
      { type: 'siren.choose', siren: sirenA },
      { type: 'siren.choose', siren: sirenB },
      { type: 'siren.toggle', siren: sirenA },
      { type: 'sirens.selectAll', sirens: [sirenA, sirenB] },
      { type: 'sirens.deselectAll', sirenIds: [sirenA.id] },
    ],
    sirets: [{ type: 'sirets.loaded', sirenId: sirenA.id, sirets: [a1, a2] }, { type: 'siret.toggle', siret: a1 }, { type: 'sirets.clear', sirenId: sirenA.id }],
    roles: [offer, { type: 'role.toggle', roleId: 9 }, { type: 'role.toggle', roleId: 1 }],
  }),
  // The only SIREN chosen from the start.
  'admin:admin.clinique@portail.test': (s) => ({
    details: detailsEvents(s, false),
    sirets: [{ type: 'sirets.loaded', sirenId: sirenA.id, sirets: [a1, a2] }],
    roles: [offer],
  }),
  // No signed-in sender: refused.
  'admin:null': (s) => ({
    details: detailsEvents(s, false),
    sirets: [{ type: 'sirets.loaded', sirenId: sirenA.id, sirets: [a1] }],
    roles: [offer],
  }),
};

function eventsFor(s: Snapshot): Event[] {
  const scenario = scenarios[`${s.context.mode}:${s.context.senderEmail}`]!(s);
  const step = (['details', 'sirens', 'sirets', 'roles'] as const).find((name) => s.matches({ editing: name }));
  return step ? [...(scenario[step] ?? []), ...move] : outcomes;
}

const ids = (list: readonly { id: string | number }[]) => list.map((x) => String(x.id)).sort();

function describeEvent(e: Event): string {
  switch (e.type) {
    case 'details.change':
      return `details.change(${e.field}=${e.value})`;
    case 'siren.toggle':
    case 'siren.choose':
      return `${e.type}(${label(e.siren.id)})`;
    case 'sirens.selectAll':
    case 'sirens.deselectAll':
      return e.type;
    case 'siret.toggle':
      return `siret.toggle(${label(e.siret.id)})`;
    case 'sirets.selectAll':
    case 'sirets.clear':
    case 'sirets.loaded':
      return `${e.type}(${label(e.sirenId)})`;
    case 'role.toggle':
      return `role.toggle(${e.roleId})`;
    default:
      return e.type;
  }
}

const wizardEvent = (e: Event | null) => e as WizardEvent | null;

export const creationWizardModel: MachineModel<Machine> = {
  machine: wizardModelMachine,
  inputs: wizardInputs,
  events: eventsFor,
  serializeState: (s: Snapshot) => {
    const { draft } = s.context;
    const filled = REQUIRED_DETAILS.filter((field) => draft.details[field].trim() !== '').length;
    return JSON.stringify([
      s.value,
      s.context.mode,
      s.context.senderEmail,
      filled,
      detailsValid(draft.details),
      ids(draft.sirens),
      ids(draft.sirets),
      ids(draft.roles),
      s.context.offeredRoles === null,
      s.context.revealErrors,
      s.context.refusal,
      s.context.submitError,
    ]);
  },
  describeEvent,
  invariant: (s, lastEvent) => {
    const { draft, mode } = s.context;
    const last = wizardEvent(lastEvent);
    const later = ['sirens', 'sirets', 'roles'] as const;
    const past = (step: (typeof later)[number]) => later.indexOf(step);
    const at = later.findIndex((step) => s.matches({ editing: step }));
    const beyond = s.matches('submitting') || s.matches('submitted') ? 3 : at;
    // §5: each step is left only when complete.
    if (beyond >= past('sirens') && !detailsValid(draft.details)) throw new Error('left the details with invalid fields');
    if (beyond >= past('sirets') && stepBlock('sirens', draft)) throw new Error('on the SIRET step without a SIREN');
    if (beyond >= past('roles') && stepBlock('sirets', draft)) throw new Error('on the roles step with a SIREN lacking a SIRET');
    if (s.matches('submitting') && planSubmission(mode, draft, s.context.senderEmail).kind === 'refused') throw new Error('submitting a refused request');
    // §5: 1 to 5 roles, only those of the mode.
    if (draft.roles.length > MAX_ROLES) throw new Error('more than 5 roles');
    if (draft.roles.some((r) => r.code === 'ADMIN_OPCO' || (mode === 'admin' ? r.type !== 'INTERNAL' : r.type === 'INTERNAL'))) throw new Error(`a role not offered in ${mode} mode`);
    // §2: admin mode has one SIREN, by radio; normal mode uses checkboxes.
    if (mode === 'admin' && draft.sirens.length > 1) throw new Error('an administrator request with several SIRENs');
    if (draft.sirets.some((siret) => !draft.sirens.some((siren) => siren.id === siret.sirenId))) throw new Error('a SIRET without its SIREN');
    if (s.context.lockSirets && draft.sirens.some((siren) => !siren.locked || !siren.selectAll)) throw new Error('admin mode SIRETs not locked');
    if (last?.type === 'sirets.loaded' && draft.sirens.find((x) => x.id === last.sirenId)?.locked) {
      if (last.sirets.some((siret) => !draft.sirets.some((x) => x.id === siret.id))) throw new Error('a locked SIREN did not take every loaded SIRET');
    }
    // §2: a single offered SIREN is chosen from the start; in admin mode the only INTERNAL role offered is chosen once offered.
    const input = Object.values(wizardInputs).find((i) => i.mode === mode && i.senderEmail === s.context.senderEmail);
    if (!lastEvent && input?.offeredSirens?.length === 1 && ids(draft.sirens).join() !== input.offeredSirens[0]!.id) throw new Error('the only SIREN was not chosen');
    // (A later offer changes nothing: the person may have unchecked it; the unit tests check the first offer's choice.)
    if (last?.type === 'roles.offered' && mode === 'admin' && !['ADMIN_ADHERENT', ''].includes(draft.roles.map((r) => r.code).join())) throw new Error('admin mode roles other than the member-administrator one');
    // §5: 'Suivant' on complete but invalid details shows every error.
    if (last?.type === 'wizard.next' && s.matches({ editing: 'details' }) && REQUIRED_DETAILS.every((f) => draft.details[f].trim()) && !s.context.revealErrors) {
      throw new Error('invalid details without their errors');
    }
    if (s.matches('submitted') && lastEvent?.type !== 'xstate.done.actor.submitCreation') throw new Error('submitted without an answer');
    if (s.context.refusal && !s.matches({ editing: 'roles' })) throw new Error('a refusal shown outside the roles step');
  },
};
