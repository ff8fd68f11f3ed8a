// The edit tabs machine's model: the test replays its paths, `npm run charts` counts them and measures coverage.
import { fromPromise, type SnapshotFrom } from 'xstate';
import { editTabsMachine, type LoadedUser, type LoadInput, type SaveFailure, type SaveInput } from '../../src/machines/edit-tabs/edit-tabs.machine';
import { MAX_ROLES, saveBlock, tabBlock, type ChosenSiret, type EditForm, type OfferedRole } from '../../src/domain/user-edit';
import { doneEvent, errorEvent, type MachineModel, type ModelEvent } from '../model/harness';

export const never = <T, I>() => fromPromise<T, I>(() => new Promise(() => {}));
const modelMachine = editTabsMachine.provide({ actors: { loadUser: never<LoadedUser, LoadInput>(), saveUser: never<void, SaveInput>() } });
type Snapshot = SnapshotFrom<typeof modelMachine>;

export const backOffice = { id: 'bo-1', backOffice: true };
export const memberAdmin = { id: 'org-1', backOffice: false };

export const sirenA = { id: 'siren-a', code: '787441799', name: 'Clinique des Tilleuls' };
export const sirenB = { id: 'siren-b', code: '552100554', name: 'EHPAD Les Glycines' };
export const a1: ChosenSiret = { id: 'siret-a1', code: '78744179900014', name: 'Clinique des Tilleuls - Lyon', sirenId: sirenA.id };
export const a2: ChosenSiret = { id: 'siret-a2', code: '78744179900022', name: 'Clinique des Tilleuls - Villeurbanne', sirenId: sirenA.id };
export const b1: ChosenSiret = { id: 'siret-b1', code: '55210055400013', name: 'EHPAD Les Glycines - Nantes', sirenId: sirenB.id };

const external = (id: number, code: string): OfferedRole => ({ id, code, name: code, type: 'EXTERNAL' });
const roles = [1, 2, 3, 4, 5, 6].map((id) => external(id, `ROLE_${id}`));
const adminRole: OfferedRole = { id: 9, code: 'ADMIN_ADHERENT', name: 'Administrateur adhérent', type: 'INTERNAL' };
const details = { firstName: 'Romain', lastName: 'Garnier', email: 'rh.clinique@portail.test', jobTitle: 'Gestionnaire RH', phoneNumber: '', mobilePhone: '', street: '', postalCode: '69003', city: 'Lyon' };

const loaded = (id: string, form: Omit<EditForm, 'details'>, extra: Partial<LoadedUser> = {}): LoadedUser => ({ id, version: 3, holdsInternalRole: false, mayEdit: true, pendingEmail: null, roles, offeredSirens: [sirenA, sirenB], form: { details, ...form }, ...extra });
/** One external role on one SIRET of SIREN A. */
export const siretHolder = loaded('u-siret', { sirens: [{ ...sirenA, selectAll: false, locked: false }], sirets: [a1], roleIds: [1] });
/** Four roles already: the fifth is the last one allowed. */
export const rolesHolder = loaded('u-roles', { sirens: [{ ...sirenA, selectAll: false, locked: false }], sirets: [a1], roleIds: [1, 2, 3, 4] });
/** The member administrator of SIREN A: an INTERNAL role there, so all its SIRETs, locked. */
export const sirenAdmin = loaded('u-admin', { sirens: [{ ...sirenA, selectAll: true, locked: true }], sirets: [], roleIds: [9] }, { holdsInternalRole: true, roles: [...roles, adminRole] });
/** A user the server says this editor may not edit (allowedActions without 'edit'), holding no INTERNAL role: e.g. for a read-only back office. */
export const notEditable = loaded('u-locked', { sirens: [{ ...sirenA, selectAll: false, locked: false }], sirets: [a1], roleIds: [1] }, { mayEdit: false });
export const byId: Record<string, LoadedUser> = { 'u-siret': siretHolder, 'u-roles': rolesHolder, 'u-admin': sirenAdmin, 'u-locked': notEditable };

/** What the server answers this editor: a member administrator may not edit the holder of an INTERNAL role (spec §2). */
const answeredTo = (editor: { backOffice: boolean }, user: LoadedUser): LoadedUser => (!editor.backOffice && user.holdsInternalRole ? { ...user, mayEdit: false } : user);

export const stale: SaveFailure = { kind: 'stale' };
const failed: SaveFailure = { kind: 'failed', message: 'Adresse email invalide' };
const tabs = (['details', 'siren', 'siret', 'roles'] as const).map((tab) => ({ type: 'tab.select', tab }) as const);
const saveOutcomes: ModelEvent<typeof modelMachine>[] = [{ type: 'edit.save' }, { type: 'edit.cancel' }, doneEvent('saveUser', {}), errorEvent('saveUser', stale), errorEvent('saveUser', failed), { type: 'edit.reload' }, { type: 'stale.dismiss' }];

/** Each user of the model gets the events its scenario is about: the graph stays small and every edge is walked. */
function eventsFor(snapshot: Snapshot): ModelEvent<typeof modelMachine>[] {
  const user = byId[snapshot.context.userId];
  const load: ModelEvent<typeof modelMachine>[] = [user ? doneEvent('loadUser', answeredTo(snapshot.context.editor, user)) : errorEvent('loadUser', { status: 404, message: 'Utilisateur introuvable.' }), { type: 'edit.reload' }];
  if (!user) return load;
  const scenario: Record<string, ModelEvent<typeof modelMachine>[]> = {
    'u-siret': [
      ...tabs,
      { type: 'siren.add', siren: sirenB },
      { type: 'siren.add', siren: sirenA },
      { type: 'siren.remove', sirenId: sirenA.id },
      { type: 'siren.remove', sirenId: sirenB.id },
      { type: 'siret.toggle', siret: a1 },
      { type: 'siret.toggle', siret: b1 },
      { type: 'sirets.selectAll', sirenId: sirenB.id },
      { type: 'sirets.clear', sirenId: sirenB.id },
      { type: 'sirets.loaded', sirenId: sirenB.id, sirets: [b1] },
    ],
    'u-roles': [
      { type: 'tab.select', tab: 'details' },
      { type: 'tab.select', tab: 'roles' },
      { type: 'details.change', field: 'firstName', value: 'Zoé' },
      { type: 'details.change', field: 'firstName', value: ' Romain ' },
      { type: 'role.toggle', roleId: 1 },
      { type: 'role.toggle', roleId: 5 },
      { type: 'role.toggle', roleId: 6 },
      { type: 'role.toggle', roleId: 9 },
    ],
    'u-admin': [
      { type: 'tab.select', tab: 'siret' },
      { type: 'tab.select', tab: 'roles' },
      { type: 'siret.toggle', siret: a1 },
      { type: 'sirets.clear', sirenId: sirenA.id },
      { type: 'sirets.selectAll', sirenId: sirenA.id },
      { type: 'sirets.loaded', sirenId: sirenA.id, sirets: [a1, a2] },
      { type: 'role.toggle', roleId: 1 },
    ],
  };
  return [...load, ...(scenario[user.id] ?? []), ...saveOutcomes];
}

export const ids = (list: readonly { id: string | number }[]) => list.map((x) => String(x.id)).sort();
const formKey = (f: EditForm) => [f.details.firstName.trim(), f.sirens.map((s) => `${s.id}${s.selectAll ? '*' : ''}${s.locked ? '!' : ''}`).sort(), ids(f.sirets), [...f.roleIds].sort()];

function describeEvent(e: ModelEvent<typeof modelMachine>): string {
  if (e.type === 'tab.select') return `tab.select(${e.tab})`;
  if (e.type === 'siren.add') return `siren.add(${e.siren.id})`;
  if (e.type === 'siren.remove' || e.type === 'sirets.selectAll' || e.type === 'sirets.clear' || e.type === 'sirets.loaded') return `${e.type}(${e.sirenId})`;
  if (e.type === 'siret.toggle') return `siret.toggle(${e.siret.id})`;
  if (e.type === 'role.toggle') return `role.toggle(${e.roleId})`;
  if (e.type === 'details.change') return `details.change(${e.value.trim()})`;
  if ('error' in e && e.error && typeof e.error === 'object' && 'kind' in e.error) return `${e.type}(${String(e.error.kind)})`;
  return e.type;
}

export const model: MachineModel<typeof modelMachine> = {
  machine: modelMachine,
  inputs: {
    self: { userId: backOffice.id, editor: backOffice },
    siretHolder: { userId: 'u-siret', editor: backOffice },
    rolesByMemberAdmin: { userId: 'u-roles', editor: memberAdmin },
    sirenAdmin: { userId: 'u-admin', editor: backOffice },
    sirenAdminByMemberAdmin: { userId: 'u-admin', editor: memberAdmin },
    missing: { userId: 'u-missing', editor: backOffice },
    notEditable: { userId: 'u-locked', editor: backOffice },
  },
  events: eventsFor,
  // The tab to return to after a failed save is part of the state (it is recorded anew each time editing is left).
  serializeState: (s: Snapshot) =>
    JSON.stringify([s.value, s.matches('editing') ? [] : Object.values(s.historyValue).flat().map((node) => node.id), s.context.editor.id, formKey(s.context.form), ids(s.context.initial.sirets), s.context.refusal, s.context.loadError?.status ?? null]),
  describeEvent,
  invariant: (s, last) => {
    const { form, initial, editor, userId } = s.context;
    // §2: the SIRET tab opens once a SIREN is chosen; the roles tab once each chosen SIREN has a SIRET.
    if (s.matches({ editing: 'siret' }) && tabBlock(form, 'siret') !== null) throw new Error('SIRET tab open without a SIREN');
    if (s.matches({ editing: 'roles' }) && tabBlock(form, 'roles') !== null) throw new Error('roles tab open with a SIREN lacking a SIRET');
    // §5: a save is sent only with a SIREN, a SIRET for each, 1 to 5 roles, and a change.
    if (s.matches('saving') && saveBlock(form, initial) !== null) throw new Error(`saving although ${saveBlock(form, initial)}`);
    if (last?.type === 'edit.save' && s.matches('editing') && saveBlock(form, initial) === null) throw new Error('a complete change was not saved');
    if (form.roleIds.length > MAX_ROLES) throw new Error('more than 5 roles');
    if (form.roleIds.some((id) => !initial.roleIds.includes(id) && !s.context.user?.roles.some((r) => r.id === id))) throw new Error('a role that was not offered');
    if (form.sirets.some((siret) => !form.sirens.some((siren) => siren.id === siret.sirenId))) throw new Error('a SIRET without its SIREN');
    // §4: a SIREN marked 'select all' takes all its SIRETs once loaded; §5: locked SIRETs stay all selected.
    if (last?.type === 'sirets.loaded' && form.sirens.find((x) => x.id === last.sirenId)?.selectAll) {
      if (last.sirets.some((siret) => !form.sirets.some((x) => x.id === siret.id))) throw new Error('select all did not take every loaded SIRET');
    }
    if (form.sirens.some((x) => x.locked && !x.selectAll)) throw new Error('locked SIRETs were changed');
    // §6: oneself is refused before anything loads; a holder of an INTERNAL role only to non-back-office people;
    // anyone else the server does not let this editor edit (issue 19), in words of its own.
    if (s.matches('refused')) {
      const target = byId[userId];
      const refusedByServer = target ? answeredTo(editor, target).mayEdit === false : false;
      const expected = userId === editor.id ? 'self' : refusedByServer ? (!editor.backOffice && target?.holdsInternalRole ? 'internalRole' : 'noRight') : null;
      if (s.context.refusal !== expected) throw new Error(`refused as ${s.context.refusal}, expected ${expected}`);
    }
    if (s.matches('editing') && (userId === editor.id || s.context.user?.mayEdit === false || (!editor.backOffice && s.context.user?.holdsInternalRole))) throw new Error('editing a user who may not be edited');
    if (s.matches('stale') && !(last?.type === 'xstate.error.actor.saveUser')) throw new Error('stale without a 409');
    if (last?.type === 'edit.reload' && s.matches('loading') && s.context.user !== null) throw new Error('reload kept the old form');
  },
};
