import { assign, setup } from 'xstate';
import {
  canToggleWizardRole,
  detailsComplete,
  detailsValid,
  EMPTY_DRAFT,
  offeredWizardRoles,
  planSubmission,
  stepBlock,
  type SirenOption,
  type SubmissionPlan,
  type SubmissionRefusal,
  type WizardDetailField,
  type WizardDraft,
  type WizardMode,
  type WizardRole,
} from '../../domain/user-create';
import { expandSelectAll, type ChosenSiren, type ChosenSiret } from '../../domain/user-edit';
import { requiredActor } from '../shared/required-actor';

export interface WizardInput {
  mode: WizardMode;
  /** Spec §2: in admin mode, for back-office people or people with USER_CREATE, a SIREN comes with all its SIRETs, locked. */
  lockSirets: boolean;
  /** The signed-in person's email, the sender of an administrator request (spec §5). */
  senderEmail: string | null;
  /** The SIRENs offered when the person cannot search them (their member-administrator SIRENs): one alone is chosen at once. */
  offeredSirens: SirenOption[] | null;
}

export interface SubmitInput {
  mode: WizardMode;
  plan: Exclude<SubmissionPlan, { kind: 'refused' }>;
}

export interface WizardContext {
  mode: WizardMode;
  lockSirets: boolean;
  senderEmail: string | null;
  /** The roles this mode offers, once loaded (spec §5). */
  offeredRoles: WizardRole[] | null;
  draft: WizardDraft;
  /** 'Suivant' was pressed on invalid details: every field shows its error. */
  revealErrors: boolean;
  /** Why the last submit was refused before anything was sent (spec §5). */
  refusal: SubmissionRefusal | null;
  /** The French message of the last failed submission (spec §8). */
  submitError: string | null;
}

export type WizardEvent =
  | { type: 'details.change'; field: WizardDetailField; value: string }
  | { type: 'wizard.next' }
  | { type: 'wizard.back' }
  | { type: 'wizard.submit' }
  | { type: 'siren.toggle'; siren: SirenOption }
  | { type: 'siren.choose'; siren: SirenOption }
  | { type: 'sirens.selectAll'; sirens: SirenOption[] }
  | { type: 'sirens.deselectAll'; sirenIds: string[] }
  | { type: 'siret.toggle'; siret: ChosenSiret }
  | { type: 'sirets.selectAll'; sirenId: string; sirets: ChosenSiret[] }
  | { type: 'sirets.clear'; sirenId: string }
  | { type: 'sirets.loaded'; sirenId: string; sirets: ChosenSiret[] }
  | { type: 'roles.offered'; roles: WizardRole[] }
  | { type: 'role.toggle'; roleId: number };

const asMessage = (error: unknown) => (error instanceof Error ? error.message : typeof error === 'string' ? error : '');

const plan = (context: WizardContext) => planSubmission(context.mode, context.draft, context.senderEmail);

const chosen = (context: WizardContext, sirenId: string) => context.draft.sirens.find((s) => s.id === sirenId);
const toChosen = (context: WizardContext, siren: SirenOption): ChosenSiren => ({ ...siren, selectAll: context.lockSirets, locked: context.lockSirets });
const withDraft = (context: WizardContext, change: Partial<WizardDraft>) => ({ ...context.draft, ...change });
/** A SIREN leaves with its SIRETs. */
const withoutSirens = (context: WizardContext, ids: readonly string[]) =>
  withDraft(context, { sirens: context.draft.sirens.filter((s) => !ids.includes(s.id)), sirets: context.draft.sirets.filter((s) => !ids.includes(s.sirenId)) });

function initialDraft(input: WizardInput): WizardDraft {
  const only = input.offeredSirens?.length === 1 ? input.offeredSirens[0]! : null;
  return only ? { ...EMPTY_DRAFT, sirens: [{ ...only, selectAll: input.lockSirets, locked: input.lockSirets }] } : EMPTY_DRAFT;
}

/**
 * The 4-step creation wizard (spec §2, §4, §5): personal details, SIRENs, SIRETs, roles; 'Suivant' only
 * when the step is complete; one submission at a time. Normal mode creates the user; admin mode sends
 * the request as invitations (one SIREN, INTERNAL roles).
 */
export const creationWizardMachine = setup({
  types: {
    context: {} as WizardContext,
    events: {} as WizardEvent,
    input: {} as WizardInput,
  },
  actors: {
    submitCreation: requiredActor<void, SubmitInput>('submitCreation'),
  },
  guards: {
    isDetailsValid: ({ context }) => detailsValid(context.draft.details),
    isDetailsComplete: ({ context }) => detailsComplete(context.draft.details),
    hasSiren: ({ context }) => stepBlock('sirens', context.draft) === null,
    hasSiretForEachSiren: ({ context }) => stepBlock('sirets', context.draft) === null,
    isUserMode: ({ context }) => context.mode === 'user',
    isAdminMode: ({ context }) => context.mode === 'admin',
    // A SIRET of a chosen SIREN whose SIRETs are not locked.
    isSiretOfUnlockedSiren: ({ context, event }) =>
      (event.type === 'siret.toggle' && chosen(context, event.siret.sirenId)?.locked === false) ||
      ((event.type === 'sirets.selectAll' || event.type === 'sirets.clear') && chosen(context, event.sirenId)?.locked === false),
    isFirstOffer: ({ context }) => context.offeredRoles === null,
    // Only a role offered in this mode, and never a sixth one.
    isToggleableRole: ({ context, event }) =>
      event.type === 'role.toggle' && context.offeredRoles?.some((r) => r.id === event.roleId) === true && canToggleWizardRole(context.draft.roles, event.roleId),
    isSubmittable: ({ context }) => plan(context).kind !== 'refused',
  },
}).createMachine({
  id: 'creation-wizard',
  context: ({ input }) => ({
    mode: input.mode,
    lockSirets: input.lockSirets,
    senderEmail: input.senderEmail,
    offeredRoles: null,
    draft: initialDraft(input),
    revealErrors: false,
    refusal: null,
    submitError: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      initial: 'details',
      on: {
        // A locked SIREN takes all its SIRETs whenever they load (spec §2 admin mode).
        'sirets.loaded': { actions: assign({ draft: ({ context, event }) => expandSelectAll(context.draft, event.sirenId, event.sirets) }) },
        // Admin mode: the member-administrator role, when it is the only one offered, is chosen at once (spec §2 chooser).
        'roles.offered': {
          guard: 'isFirstOffer',
          actions: assign(({ context, event }) => {
            const offered = offeredWizardRoles(event.roles, context.mode);
            const preset = context.mode === 'admin' && offered.length === 1 && context.draft.roles.length === 0 ? offered : context.draft.roles;
            return { offeredRoles: offered, draft: withDraft(context, { roles: preset }) };
          }),
        },
      },
      states: {
        details: {
          on: {
            'details.change': {
              actions: assign({ draft: ({ context, event }) => withDraft(context, { details: { ...context.draft.details, [event.field]: event.value } }) }),
            },
            'wizard.next': [
              { guard: 'isDetailsValid', target: 'sirens' },
              { guard: 'isDetailsComplete', actions: assign({ revealErrors: true }) },
            ],
          },
        },
        sirens: {
          on: {
            'siren.toggle': {
              guard: 'isUserMode',
              actions: assign({
                draft: ({ context, event }) =>
                  chosen(context, event.siren.id) ? withoutSirens(context, [event.siren.id]) : withDraft(context, { sirens: [...context.draft.sirens, toChosen(context, event.siren)] }),
              }),
            },
            // Admin mode: one SIREN, chosen by a radio button; the previous one leaves with its SIRETs.
            'siren.choose': {
              guard: 'isAdminMode',
              actions: assign({
                draft: ({ context, event }) => (chosen(context, event.siren.id) ? context.draft : withDraft(context, { sirens: [toChosen(context, event.siren)], sirets: [] })),
              }),
            },
            'sirens.selectAll': {
              guard: 'isUserMode',
              actions: assign({
                draft: ({ context, event }) =>
                  withDraft(context, { sirens: [...context.draft.sirens, ...event.sirens.filter((s) => !chosen(context, s.id)).map((s) => toChosen(context, s))] }),
              }),
            },
            'sirens.deselectAll': { guard: 'isUserMode', actions: assign({ draft: ({ context, event }) => withoutSirens(context, event.sirenIds) }) },
            'wizard.next': { guard: 'hasSiren', target: 'sirets' },
            'wizard.back': 'details',
          },
        },
        sirets: {
          on: {
            'siret.toggle': {
              guard: 'isSiretOfUnlockedSiren',
              actions: assign({
                draft: ({ context, event }) => {
                  const sirets = context.draft.sirets;
                  return withDraft(context, { sirets: sirets.some((s) => s.id === event.siret.id) ? sirets.filter((s) => s.id !== event.siret.id) : [...sirets, event.siret] });
                },
              }),
            },
            'sirets.selectAll': {
              guard: 'isSiretOfUnlockedSiren',
              actions: assign({
                draft: ({ context, event }) => {
                  const added = event.sirets.filter((s) => s.sirenId === event.sirenId && !context.draft.sirets.some((x) => x.id === s.id));
                  return withDraft(context, { sirets: [...context.draft.sirets, ...added] });
                },
              }),
            },
            'sirets.clear': {
              guard: 'isSiretOfUnlockedSiren',
              actions: assign({ draft: ({ context, event }) => withDraft(context, { sirets: context.draft.sirets.filter((s) => s.sirenId !== event.sirenId) }) }),
            },
            'wizard.next': { guard: 'hasSiretForEachSiren', target: 'roles' },
            'wizard.back': 'sirens',
          },
        },
        roles: {
          // What was refused or failed concerns this step only.
          exit: assign({ refusal: null, submitError: null }),
          on: {
            'role.toggle': {
              guard: 'isToggleableRole',
              actions: assign({
                draft: ({ context, event }) => {
                  const roles = context.draft.roles;
                  const role = context.offeredRoles!.find((r) => r.id === event.roleId)!;
                  return withDraft(context, { roles: roles.some((r) => r.id === role.id) ? roles.filter((r) => r.id !== role.id) : [...roles, role] });
                },
                refusal: null,
              }),
            },
            'wizard.submit': [
              { guard: 'isSubmittable', target: '#creation-wizard.submitting' },
              { actions: assign({ refusal: ({ context }) => (plan(context) as { reason: SubmissionRefusal }).reason, submitError: null }) },
            ],
            'wizard.back': 'sirets',
          },
        },
      },
    },
    submitting: {
      entry: assign({ refusal: null, submitError: null }),
      invoke: {
        id: 'submitCreation',
        src: 'submitCreation',
        input: ({ context }) => ({ mode: context.mode, plan: plan(context) as SubmitInput['plan'] }),
        onDone: 'submitted',
        onError: { target: 'editing.roles', actions: assign({ submitError: ({ event }) => asMessage(event.error) }) },
      },
    },
    submitted: { type: 'final' },
  },
});

export type CreationWizardMachine = typeof creationWizardMachine;
