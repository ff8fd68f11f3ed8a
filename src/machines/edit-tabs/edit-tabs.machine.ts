import { assign, setup } from 'xstate';
import {
  canToggleRole,
  editRefusal,
  expandSelectAll,
  saveBlock,
  tabBlock,
  type ChosenSiren,
  type ChosenSiret,
  type DetailField,
  type EditForm,
  type EditRefusal,
  type EditTab,
  type OfferedRole,
} from '../../domain/user-edit';
import { requiredActor } from '../shared/required-actor';

export interface Editor {
  id: string;
  backOffice: boolean;
}

/** The user as loaded for the edit page: the form as they are now, and what may be offered. */
export interface LoadedUser {
  id: string;
  version: number;
  holdsInternalRole: boolean;
  /** The server's allowedActions hold 'edit': the page opens only then. */
  mayEdit: boolean;
  /** A new address waiting for its owner's confirmation (the form's email stays the one in force); null: none. */
  pendingEmail: string | null;
  form: EditForm;
  roles: OfferedRole[];
  /** The SIRENs offered without a search (for people without ORG_LIST). */
  offeredSirens: { id: string; code: string; name: string }[];
}

export interface LoadInput {
  userId: string;
  editor: Editor;
}

export interface SaveInput {
  userId: string;
  version: number;
  form: EditForm;
}

/** Why a save failed: someone else changed the user since it was loaded (409 on the version), or anything else. */
export type SaveFailure = { kind: 'stale' } | { kind: 'failed'; message: string | null };

export interface EditTabsContext {
  userId: string;
  editor: Editor;
  user: LoadedUser | null;
  /** The form being edited, and the user as loaded (with its select-all SIRENs expanded alike): no difference, nothing to save. */
  form: EditForm;
  initial: EditForm;
  refusal: EditRefusal | null;
  loadError: { status: number; message: string | null } | null;
  /** The last save failed (not on the version); `message` is the server's, if any. */
  saveError: { message: string | null } | null;
}

export type EditTabsEvent =
  | { type: 'tab.select'; tab: EditTab }
  | { type: 'details.change'; field: DetailField; value: string }
  | { type: 'siren.add'; siren: { id: string; code: string; name: string } }
  | { type: 'siren.remove'; sirenId: string }
  | { type: 'siret.toggle'; siret: ChosenSiret }
  | { type: 'sirets.selectAll'; sirenId: string }
  | { type: 'sirets.clear'; sirenId: string }
  | { type: 'sirets.loaded'; sirenId: string; sirets: ChosenSiret[] }
  | { type: 'role.toggle'; roleId: number }
  | { type: 'edit.save' }
  | { type: 'edit.cancel' }
  | { type: 'edit.reload' }
  | { type: 'stale.dismiss' };

const EMPTY_FORM: EditForm = {
  details: { firstName: '', lastName: '', email: '', jobTitle: '', phoneNumber: '', mobilePhone: '', street: '', postalCode: '', city: '' },
  sirens: [],
  sirets: [],
  roleIds: [],
};

const asLoadError = (error: unknown) =>
  error && typeof error === 'object' && 'status' in error ? { status: Number(error.status), message: 'message' in error ? String(error.message) : null } : { status: 0, message: null };
const asSaveFailure = (error: unknown): SaveFailure =>
  error && typeof error === 'object' && 'kind' in error ? (error as SaveFailure) : { kind: 'failed', message: null };

const failedMessage = (error: unknown) => {
  const failure = asSaveFailure(error);
  return failure.kind === 'failed' ? failure.message : null;
};

const sirenOf = (context: EditTabsContext, sirenId: string) => context.form.sirens.find((s) => s.id === sirenId);
const isUnlocked = (context: EditTabsContext, sirenId: string) => sirenOf(context, sirenId)?.locked === false;
const changeSirens = (context: EditTabsContext, sirenId: string, change: (siren: ChosenSiren) => ChosenSiren) =>
  context.form.sirens.map((s) => (s.id === sirenId ? change(s) : s));
const opens = (tab: EditTab) => ({ context, event }: { context: EditTabsContext; event: EditTabsEvent }) =>
  event.type === 'tab.select' && event.tab === tab && tabBlock(context.form, tab) === null;

/**
 * The edit page of one user (spec §2 /utilisateurs/edit/{userId}, §4 edit tabs, §5 save rules, §6 guards):
 * refused for oneself, and for a non-back-office person when the user holds an INTERNAL role; four tabs,
 * SIRET opening once a SIREN is chosen and roles once each SIREN has a SIRET; save only with a change and
 * a complete choice, against the version loaded (a stale one offers to reload).
 */
export const editTabsMachine = setup({
  types: {
    context: {} as EditTabsContext,
    events: {} as EditTabsEvent,
    input: {} as LoadInput,
  },
  actors: {
    loadUser: requiredActor<LoadedUser, LoadInput>('loadUser'),
    saveUser: requiredActor<void, SaveInput>('saveUser'),
  },
  guards: {
    isSelf: ({ context }) => editRefusal(context.editor, { id: context.userId, holdsInternalRole: false }) === 'self',
    isRefusedTarget: ({ context, event }) => editRefusal(context.editor, (event as unknown as { output: LoadedUser }).output) !== null,
    opensDetails: opens('details'),
    opensSiren: opens('siren'),
    opensSiret: opens('siret'),
    opensRoles: opens('roles'),
    canSave: ({ context }) => saveBlock(context.form, context.initial) === null,
    isNewSiren: ({ context, event }) => event.type === 'siren.add' && !sirenOf(context, event.siren.id),
    isSiretOfUnlockedSiren: ({ context, event }) => event.type === 'siret.toggle' && isUnlocked(context, event.siret.sirenId),
    isUnlockedSiren: ({ context, event }) => (event.type === 'sirets.selectAll' || event.type === 'sirets.clear') && isUnlocked(context, event.sirenId),
    // Only a role offered to this editor, and never a sixth one.
    isToggleableRole: ({ context, event }) =>
      event.type === 'role.toggle' && context.user?.roles.some((r) => r.id === event.roleId) === true && canToggleRole(context.form.roleIds, event.roleId),
    isStale: ({ event }) => asSaveFailure((event as { error?: unknown }).error).kind === 'stale',
  },
}).createMachine({
  id: 'edit-tabs',
  context: ({ input }) => ({ userId: input.userId, editor: input.editor, user: null, form: EMPTY_FORM, initial: EMPTY_FORM, refusal: null, loadError: null, saveError: null }),
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'isSelf', target: 'refused', actions: assign({ refusal: 'self' }) }, { target: 'loading' }],
    },
    loading: {
      entry: assign({ user: null, form: EMPTY_FORM, initial: EMPTY_FORM, loadError: null, saveError: null }),
      invoke: {
        id: 'loadUser',
        src: 'loadUser',
        input: ({ context }) => ({ userId: context.userId, editor: context.editor }),
        onDone: [
          { guard: 'isRefusedTarget', target: 'refused', actions: assign({ refusal: ({ context, event }) => editRefusal(context.editor, event.output) }) },
          { target: 'editing', actions: assign({ user: ({ event }) => event.output, form: ({ event }) => event.output.form, initial: ({ event }) => event.output.form }) },
        ],
        onError: { target: 'loadFailed', actions: assign({ loadError: ({ event }) => asLoadError(event.error) }) },
      },
    },
    loadFailed: {
      on: { 'edit.reload': 'loading' },
    },
    refused: { type: 'final' },
    editing: {
      initial: 'details',
      on: {
        'tab.select': [
          { guard: 'opensDetails', target: '.details' },
          { guard: 'opensSiren', target: '.siren' },
          { guard: 'opensSiret', target: '.siret' },
          { guard: 'opensRoles', target: '.roles' },
        ],
        // SIRETs arrive whenever they load: the SIRENs marked 'select all' take them, in the form and in the loaded user alike.
        'sirets.loaded': {
          actions: assign({
            form: ({ context, event }) => expandSelectAll(context.form, event.sirenId, event.sirets),
            initial: ({ context, event }) => expandSelectAll(context.initial, event.sirenId, event.sirets),
          }),
        },
        'edit.save': { guard: 'canSave', target: 'saving' },
        'edit.cancel': 'cancelled',
      },
      states: {
        details: {
          on: {
            'details.change': {
              actions: assign({ form: ({ context, event }) => ({ ...context.form, details: { ...context.form.details, [event.field]: event.value } }) }),
            },
          },
        },
        siren: {
          on: {
            'siren.add': {
              guard: 'isNewSiren',
              actions: assign({ form: ({ context, event }) => ({ ...context.form, sirens: [...context.form.sirens, { ...event.siren, selectAll: false, locked: false }] }) }),
            },
            // A SIREN leaves with its SIRETs.
            'siren.remove': {
              actions: assign({
                form: ({ context, event }) => ({
                  ...context.form,
                  sirens: context.form.sirens.filter((s) => s.id !== event.sirenId),
                  sirets: context.form.sirets.filter((s) => s.sirenId !== event.sirenId),
                }),
              }),
            },
          },
        },
        siret: {
          on: {
            'siret.toggle': {
              guard: 'isSiretOfUnlockedSiren',
              actions: assign({
                form: ({ context, event }) => {
                  const chosen = context.form.sirets.some((s) => s.id === event.siret.id);
                  return {
                    ...context.form,
                    sirens: changeSirens(context, event.siret.sirenId, (s) => ({ ...s, selectAll: false })),
                    sirets: chosen ? context.form.sirets.filter((s) => s.id !== event.siret.id) : [...context.form.sirets, event.siret],
                  };
                },
              }),
            },
            'sirets.selectAll': {
              guard: 'isUnlockedSiren',
              actions: assign({ form: ({ context, event }) => ({ ...context.form, sirens: changeSirens(context, event.sirenId, (s) => ({ ...s, selectAll: true })) }) }),
            },
            'sirets.clear': {
              guard: 'isUnlockedSiren',
              actions: assign({
                form: ({ context, event }) => ({
                  ...context.form,
                  sirens: changeSirens(context, event.sirenId, (s) => ({ ...s, selectAll: false })),
                  sirets: context.form.sirets.filter((s) => s.sirenId !== event.sirenId),
                }),
              }),
            },
          },
        },
        roles: {
          on: {
            'role.toggle': {
              guard: 'isToggleableRole',
              actions: assign({
                form: ({ context, event }) => {
                  const ids = context.form.roleIds;
                  return { ...context.form, roleIds: ids.includes(event.roleId) ? ids.filter((id) => id !== event.roleId) : [...ids, event.roleId] };
                },
              }),
            },
          },
        },
        // Back from a failed or stale save to the tab that was open.
        previous: { type: 'history' },
      },
    },
    saving: {
      entry: assign({ saveError: null }),
      invoke: {
        id: 'saveUser',
        src: 'saveUser',
        input: ({ context }) => ({ userId: context.userId, version: context.user?.version ?? 0, form: context.form }),
        onDone: 'saved',
        onError: [
          { guard: 'isStale', target: 'stale' },
          {
            target: 'editing.previous',
            actions: assign({ saveError: ({ event }) => ({ message: failedMessage(event.error) }) }),
          },
        ],
      },
    },
    stale: {
      on: {
        'edit.reload': 'loading',
        'stale.dismiss': 'editing.previous',
      },
    },
    saved: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

export type EditTabsMachine = typeof editTabsMachine;
