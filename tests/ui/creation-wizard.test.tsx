// The rendered creation wizard walked along paths generated from its machine's model: each event of a path
// becomes what a person does on the screen (or, where the machine would ignore it, the check that the
// screen does not offer it), and after each step the screen must show what the machine's state says.
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, type SnapshotFrom } from 'xstate';
import { rolesKeys } from '../../src/api/roles';
import { planSubmission, WIZARD_STEPS, type WizardDetailField } from '../../src/domain/user-create';
import { MAX_ROLES } from '../../src/domain/user-edit';
import { fr } from '../../src/i18n/fr';
import { computeCoverage, generatePaths, replayPath, transitionId, type MachineModel, type ModelEvent, type TestPath } from '../model/harness';
import { a1, a2, allRoles, b1, creationWizardModel, sirenA, sirenB, validDetails, wizardInputs, wizardModelMachine } from '../machines/creation-wizard.model';
import { createdInvitation, createdUser, openWizard, type renderWizard } from './creation-wizard-fixtures';

afterEach(cleanup);
// Role queries skip the visibility computation (getComputedStyle up the tree for every element): several
// times faster in jsdom, and a query for what must be absent then also finds what is merely hidden.
configure({ defaultHidden: true });

type Machine = typeof wizardModelMachine;
type Snapshot = SnapshotFrom<Machine>;
type Event = ModelEvent<Machine>;
type View = ReturnType<typeof renderWizard>;
type User = ReturnType<typeof userEvent.setup>;

const t = fr.userCreate;
const SIRENS = [sirenA, sirenB];
const SIRETS = [a1, a2, b1];
const siretsOf = (sirenId: string) => SIRETS.filter((s) => s.sirenId === sirenId);
const allChosen = (wanted: readonly { id: string }[], chosen: readonly { id: string }[]) => wanted.every((w) => chosen.some((c) => c.id === w.id));
const has = (list: readonly { id: string | number }[], id: string | number) => list.some((x) => x.id === id);

// ---------------------------------------------------------------------------------------------------------
// The model as the screen can play it

const modelEvents = creationWizardModel.events as (s: Snapshot) => Event[];

/**
 * The model's events, as the screen offers them: the roles load at once (their offer comes first, then
 * never again); 'sirets.loaded' is the screen's own business (and changes nothing for SIRENs that are not
 * locked); 'select all' is one checkbox, so it selects while not all are chosen and deselects when all are.
 */
function uiEvents(s: Snapshot): Event[] {
  if (s.context.offeredRoles === null) return [{ type: 'roles.offered', roles: allRoles }];
  const { sirens, sirets } = s.context.draft;
  return modelEvents(s).filter((e) => {
    switch (e.type) {
      case 'roles.offered':
      case 'sirets.loaded':
        return false;
      case 'sirens.selectAll':
        return !allChosen(e.sirens, sirens);
      case 'sirens.deselectAll':
        return allChosen(e.sirenIds.map((id) => ({ id })), sirens);
      case 'sirets.selectAll':
        return !allChosen(siretsOf(e.sirenId), sirets);
      case 'sirets.clear':
        return allChosen(siretsOf(e.sirenId), sirets);
      default:
        return true;
    }
  });
}

/** Normal mode only: admin mode is tested directly below. */
const uiModel: MachineModel<Machine> = {
  ...creationWizardModel,
  inputs: { userByBackOffice: wizardInputs.userByBackOffice!, userByMemberAdmin: wizardInputs.userByMemberAdmin! },
  events: uiEvents,
};

/** What a step is, for the screen: the event, whether what it toggles was chosen, and what the machine did. */
function stepKind(e: Event, s: Snapshot): string {
  const { draft, offeredRoles } = s.context;
  switch (e.type) {
    case 'siren.toggle':
      return `siren.toggle(${e.siren.id}, ${has(draft.sirens, e.siren.id) ? 'chosen' : 'free'})`;
    case 'siren.choose':
      return `siren.choose(${e.siren.id})`;
    case 'siret.toggle':
      return `siret.toggle(${e.siret.id}, ${has(draft.sirets, e.siret.id) ? 'chosen' : has(draft.sirens, e.siret.sirenId) ? 'free' : 'no SIREN'})`;
    case 'sirets.selectAll':
    case 'sirets.clear':
      return `${e.type}(${e.sirenId}, ${has(draft.sirens, e.sirenId) ? 'shown' : 'no SIREN'})`;
    case 'role.toggle':
      if (!offeredRoles?.some((r) => r.id === e.roleId)) return 'role.toggle(not offered)';
      return `role.toggle(${has(draft.roles, e.roleId) ? 'chosen' : draft.roles.length >= MAX_ROLES ? 'sixth' : 'free'})`;
    default:
      return e.type;
  }
}

/** Each step of a path as `input, state, kind of step → transitions taken`. */
function stepKinds(path: TestPath<Machine>): string[] {
  let taken: string[] = [];
  const actor = createActor(wizardModelMachine, {
    input: path.input!,
    inspect: (event) => {
      if (event.type === '@xstate.microstep') taken.push(...event._transitions.map(transitionId));
    },
  });
  actor.start();
  const kinds = path.steps.map((step) => {
    const before = actor.getSnapshot();
    taken = [];
    actor.send(step.event as never);
    return `${path.inputName} ${JSON.stringify(before.value)} ${stepKind(step.event, before)} → ${taken.join(', ') || 'nothing'}`;
  });
  actor.stop();
  return kinds;
}

/** The paths to walk: greedily, those that add the most kinds of step for their length, until every kind of the graph is in. */
function choosePaths(paths: TestPath<Machine>[]): TestPath<Machine>[] {
  const profiles = paths.map((path) => ({ path, kinds: new Set(stepKinds(path)) }));
  const all = new Set(profiles.flatMap((p) => [...p.kinds]));
  const covered = new Set<string>();
  const chosen: TestPath<Machine>[] = [];
  while (covered.size < all.size) {
    let best: (typeof profiles)[number] | undefined;
    let bestScore = 0;
    for (const profile of profiles) {
      const gain = [...profile.kinds].filter((k) => !covered.has(k)).length;
      // Mounting the wizard costs about as much as eight steps.
      const score = gain / (profile.path.steps.length + 8);
      if (score > bestScore) [best, bestScore] = [profile, score];
    }
    if (!best) break;
    chosen.push(best.path);
    for (const kind of best.kinds) covered.add(kind);
  }
  return chosen;
}

const allPaths = generatePaths(uiModel);
const walkedPaths = choosePaths(allPaths);

/** `details.change(firstName=Zoé) → details.change(…)` as `details ×n`, so that a path's name says what it is about. */
const shortName = (path: TestPath<Machine>) => path.description.replace(/details\.change\([^)]*\)( → details\.change\([^)]*\))+/g, (run) => `details ×${run.split(' → ').length}`);

// ---------------------------------------------------------------------------------------------------------
// Events as actions on the screen

const button = (name: string) => screen.getByRole('button', { name });
const checked = (element: HTMLElement) => (element as HTMLInputElement).checked;
const disabled = (element: HTMLElement) => (element as HTMLInputElement | HTMLButtonElement).disabled;
/** 'Suivant' and the final button stay focusable when they cannot be used (aria-disabled), saying why. */
const unavailable = (element: HTMLElement) => element.getAttribute('aria-disabled') === 'true';
/** The step's heading (the processing overlay has a heading of its own). */
const stepHeading = () => screen.getAllByRole('heading', { level: 2 }).find((heading) => !heading.closest('[role="alertdialog"]'))!;
/** The text a control points at with aria-describedby. */
const reasonOf = (element: HTMLElement) => document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent ?? null;
const field = (name: WizardDetailField) => screen.getByRole('textbox', { name: t.fields[name] });
// The checks after each step find controls by their label's text, several times cheaper than by role.
const fieldValue = (name: WizardDetailField) => (screen.getByLabelText(new RegExp(`^${t.fields[name]}( \\*)?$`)) as HTMLInputElement).value;
const sirenList = () => screen.findByRole('list', { name: t.sirens.list });
const sirenBox = async (code: string) => within(await sirenList()).getByRole('checkbox', { name: new RegExp(code) });
const selectAllSirens = () => screen.getByRole('checkbox', { name: t.sirens.selectAll });
const group = (siren: { code: string; name: string }) => screen.queryByRole('region', { name: `${siren.name} (${siren.code})` });
/** A shown SIREN group, once its SIRETs are listed. */
async function loadedGroup(siren: { id: string; code: string; name: string }) {
  const region = group(siren);
  expect(region, `the SIRET group of ${siren.name}`).not.toBeNull();
  await within(region!).findByRole('checkbox', { name: new RegExp(siretsOf(siren.id)[0]!.code) });
  return region!;
}
const selectAllSirets = (region: HTMLElement, siren: { name: string }) => within(region).getByRole('checkbox', { name: fr.userEdit.siret.selectAllOf(siren.name) });
const rolesShown = () => screen.findByRole('group', { name: fr.userEdit.roles.title });
/** A role's checkbox, named by its badge (and 'Rôle interne' after an INTERNAL one's). */
const roleName = (roleId: number) => new RegExp(`^${allRoles.find((r) => r.id === roleId)!.name}(?!\\d)`);
const roleBox = (roleId: number) => screen.queryByRole('checkbox', { name: roleName(roleId) });

const stepOf = (s: Snapshot) => WIZARD_STEPS.find((name) => s.matches({ editing: name }));
const BLOCKED = { details: t.required, sirens: t.blocks.noSiren, sirets: t.blocks.siretMissing } as const;

/** Does on the screen what the event stands for, in the state `before`; or checks that the screen does not offer it. */
async function perform(event: Event, before: Snapshot, view: View, user: User) {
  const { draft } = before.context;
  switch (event.type) {
    case 'roles.offered':
      // The roles load as the wizard opens: wait for them.
      await waitFor(() => expect(view.queryClient.getQueryData(rolesKeys.all)).toBeDefined());
      return;
    case 'details.change': {
      const box = field(event.field);
      await user.clear(box);
      if (event.value) await user.type(box, event.value);
      return;
    }
    case 'wizard.next': {
      const next = button(t.next);
      if (before.can(event)) return user.click(next);
      expect(unavailable(next), "'Suivant' unavailable").toBe(true);
      expect(reasonOf(next)).toBe(BLOCKED[stepOf(before) as keyof typeof BLOCKED]);
      // Still focusable and pressable, it does nothing (the checks after the step find the screen unchanged).
      await user.click(next);
      expect(document.activeElement).toBe(next);
      return;
    }
    case 'wizard.back': {
      const previous = button(t.previous);
      if (before.can(event)) return user.click(previous);
      expect(disabled(previous), "'Étape précédente' disabled").toBe(true);
      return;
    }
    case 'wizard.submit': {
      if (stepOf(before) !== 'roles') {
        expect(screen.queryByRole('button', { name: t.submit.user })).toBeNull();
        return;
      }
      const submit = button(t.submit.user);
      const plan = planSubmission(before.context.mode, draft, before.context.senderEmail);
      if (plan.kind === 'refused' && plan.reason === 'noRole') {
        // The machine would refuse it: the screen does not let it be sent, and says why.
        expect(unavailable(submit), `'${t.submit.user}' unavailable`).toBe(true);
        expect(reasonOf(submit)).toBe(t.blocks.noRole);
        await user.click(submit);
        return;
      }
      return user.click(submit);
    }
    case 'siren.toggle': {
      const box = await sirenBox(event.siren.code);
      expect(checked(box)).toBe(has(draft.sirens, event.siren.id));
      return user.click(box);
    }
    case 'siren.choose':
      // Normal mode: checkboxes, no radio button to choose one SIREN with.
      await sirenList();
      expect(screen.queryAllByRole('radio')).toHaveLength(0);
      return;
    case 'sirens.selectAll':
    case 'sirens.deselectAll': {
      const box = selectAllSirens();
      await waitFor(() => expect(disabled(box)).toBe(false));
      expect(checked(box)).toBe(event.type === 'sirens.deselectAll');
      return user.click(box);
    }
    case 'siret.toggle': {
      const siren = SIRENS.find((s) => s.id === event.siret.sirenId)!;
      if (!has(draft.sirens, siren.id)) {
        expect(group(siren)).toBeNull();
        expect(screen.queryByRole('checkbox', { name: new RegExp(event.siret.code) })).toBeNull();
        return;
      }
      const box = within(await loadedGroup(siren)).getByRole('checkbox', { name: new RegExp(event.siret.code) });
      expect(checked(box)).toBe(has(draft.sirets, event.siret.id));
      return user.click(box);
    }
    case 'sirets.selectAll':
    case 'sirets.clear': {
      const siren = SIRENS.find((s) => s.id === event.sirenId)!;
      if (!has(draft.sirens, siren.id)) {
        expect(group(siren)).toBeNull();
        return;
      }
      const box = selectAllSirets(await loadedGroup(siren), siren);
      expect(checked(box)).toBe(event.type === 'sirets.clear');
      return user.click(box);
    }
    case 'role.toggle': {
      await rolesShown();
      const box = roleBox(event.roleId);
      if (!before.context.offeredRoles!.some((r) => r.id === event.roleId)) {
        expect(box, `role ${event.roleId} not offered`).toBeNull();
        return;
      }
      expect(box).not.toBeNull();
      if (before.can(event)) return user.click(box!);
      expect(disabled(box!), `role ${event.roleId} disabled`).toBe(true);
      return;
    }
    case 'xstate.done.actor.submitCreation':
    case 'xstate.error.actor.submitCreation': {
      const [creation] = view.api.pending();
      expect(creation, 'a creation waiting for its answer').toBeDefined();
      creation!.answer(
        event.type === 'xstate.done.actor.submitCreation'
          ? { status: 201, body: createdUser }
          : { status: 400, body: { error: 'BadRequest', message: "Erreur lors de l'envoi de l'invitation.", requestId: 't' } },
      );
      return;
    }
    default:
      throw new Error(`no action on the screen for ${event.type}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// What the screen must show in a state

async function expectScreen(s: Snapshot, view: View) {
  const { mode, draft } = s.context;
  if (s.matches('submitted')) {
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/utilisateurs'));
    expect(view.router.state.location.state.toast).toMatchObject({ title: t.succeeded[mode], variant: 'success' });
    expect(await screen.findByText(t.succeeded[mode])).toBeTruthy();
    expect(screen.queryByText(t.overlay[mode])).toBeNull();
    expect(view.api.creations.filter((c) => c.answered)).toHaveLength(view.api.creations.length);
    return;
  }
  const step = stepOf(s) ?? 'roles';
  expect(stepHeading().textContent).toBe(t.steps[step]);
  expect(screen.getByText(t.stepper(WIZARD_STEPS.indexOf(step) + 1))).toBeTruthy();

  if (s.matches('submitting')) {
    // The overlay is a modal alert dialog named by its text, holding the focus.
    const overlay = await screen.findByRole('alertdialog', { name: t.overlay[mode] });
    expect(overlay.contains(document.activeElement)).toBe(true);
    // The machine takes nothing but the answer meanwhile: nothing can be pressed or changed.
    expect(unavailable(button(t.sending))).toBe(true);
    expect(disabled(button(t.previous))).toBe(true);
    for (const role of s.context.offeredRoles ?? []) expect(disabled(screen.getByLabelText(roleName(role.id))), role.code).toBe(true);
    // One creation sent, with what the machine planned.
    await waitFor(() => expect(view.api.pending()).toHaveLength(1));
    const plan = planSubmission(mode, draft, s.context.senderEmail);
    expect(plan.kind).toBe('user');
    expect(view.api.pending()[0]!.path).toBe('/api/v2/users/complete');
    expect(view.api.pending()[0]!.body).toEqual((plan as { body: unknown }).body);
    return;
  }
  // After an answer to the creation, the overlay goes once the answer arrives.
  await waitFor(() => expect(screen.queryByText(t.overlay[mode])).toBeNull());
  // A refusal for lack of a role cannot happen on the screen (the button is disabled and says why, see perform).
  const { refusal, submitError } = s.context;
  const alert = submitError ?? (refusal && refusal !== 'noRole' ? t.refusals[refusal] : null);
  if (alert) expect(screen.getByRole('alert').textContent).toBe(alert);
  else expect(screen.queryByRole('alert')).toBeNull();

  switch (step) {
    case 'details':
      for (const name of Object.keys(validDetails) as WizardDetailField[]) expect(fieldValue(name), name).toBe(draft.details[name]);
      return;
    case 'sirens': {
      expect(screen.getByText(t.sirens.chosen(draft.sirens.length))).toBeTruthy();
      for (const siren of SIRENS) expect(checked(await sirenBox(siren.code)), siren.name).toBe(has(draft.sirens, siren.id));
      await waitFor(() => expect(checked(selectAllSirens()), 'select all').toBe(allChosen(SIRENS, draft.sirens)));
      return;
    }
    case 'sirets':
      for (const siren of SIRENS) {
        if (!has(draft.sirens, siren.id)) {
          expect(group(siren)).toBeNull();
          continue;
        }
        const region = await loadedGroup(siren);
        for (const siret of siretsOf(siren.id)) expect(checked(within(region).getByRole('checkbox', { name: new RegExp(siret.code) })), siret.name).toBe(has(draft.sirets, siret.id));
        expect(checked(selectAllSirets(region, siren)), `select all of ${siren.name}`).toBe(allChosen(siretsOf(siren.id), draft.sirets));
      }
      return;
    case 'roles': {
      await rolesShown();
      const full = draft.roles.length >= MAX_ROLES;
      expect(screen.getByText(full ? fr.userEdit.roles.limit : fr.userEdit.roles.count(draft.roles.length))).toBeTruthy();
      for (const role of allRoles) {
        const box = screen.queryByLabelText(roleName(role.id));
        if (!s.context.offeredRoles!.some((r) => r.id === role.id)) {
          expect(box, `${role.code} not offered`).toBeNull();
          continue;
        }
        const chosen = has(draft.roles, role.id);
        expect(checked(box!), role.code).toBe(chosen);
        expect(disabled(box!), `${role.code} disabled`).toBe(!chosen && full);
      }
      return;
    }
  }
}

/** Where the focus is after a step: on a new step's heading; back on the final button once a failed submission's overlay closes. */
async function expectFocus(before: Snapshot, after: Snapshot, event: Event) {
  const [was, step] = [stepOf(before), stepOf(after)];
  if (was && step && step !== was) expect(document.activeElement, "the new step's heading").toBe(stepHeading());
  if (event.type === 'xstate.error.actor.submitCreation') await waitFor(() => expect(document.activeElement, 'the final button').toBe(button(t.submit.user)));
}

/** Walks a path on the screen, the machine alongside to say what each state holds. */
async function walk(path: TestPath<Machine>) {
  const input = path.input!;
  const machine = createActor(wizardModelMachine, { input }).start();
  onTestFinished(() => {
    machine.stop();
  });
  const view = await openWizard(input);
  const user = userEvent.setup({ delay: null });
  const at = async (where: string, check: () => Promise<void>) => {
    try {
      await check();
    } catch (error) {
      throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
    }
  };
  await at('at start', () => expectScreen(machine.getSnapshot(), view));
  for (const [i, step] of path.steps.entries()) {
    await at(`step ${i + 1} (${uiModel.describeEvent!(step.event)})`, async () => {
      const before = machine.getSnapshot();
      await perform(step.event, before, view, user);
      machine.send(step.event as never);
      const after = machine.getSnapshot();
      expect(after.value).toEqual(step.expectedStateValue);
      uiModel.invariant!(after, step.event);
      await expectScreen(after, view);
      await expectFocus(before, after, step.event);
    });
  }
  // Normal mode with SIRENs offered reads no SIREN from the server.
  if (input.offeredSirens) expect(view.api.reads.filter((url) => url.searchParams.get('type') === 'SIREN')).toEqual([]);
}

describe(`the creation wizard, walked along ${walkedPaths.length} of the ${allPaths.length} paths of its model (normal mode)`, () => {
  for (const path of walkedPaths) it(shortName(path), () => walk(path));

  it('walks every transition the screen can trigger, and every event of the model the screen plays', async () => {
    const coverageOf = async (paths: TestPath<Machine>[]) => computeCoverage(wizardModelMachine, await Promise.all(paths.map((p) => replayPath(uiModel, p))), paths.length);
    const walked = await coverageOf(walkedPaths);
    const possible = await coverageOf(allPaths);
    expect(walked.transitions.missing).toEqual(possible.transitions.missing);
    expect(walked.states.missing).toEqual([]);
    // What normal mode on a screen never does: 'sirets.loaded' is the screen's own (and changes nothing), a radio button is admin mode's.
    expect(walked.transitions.missing).toEqual(['creation-wizard.editing --sirets.loaded--> (internal)', 'creation-wizard.editing.sirens --siren.choose--> (internal)']);
    const types = (paths: TestPath<Machine>[]) => [...new Set(paths.flatMap((p) => p.steps.map((s) => s.event.type)))].sort();
    expect(types(walkedPaths)).toEqual(types(allPaths));
    expect(new Set(walkedPaths.flatMap(stepKinds))).toEqual(new Set(allPaths.flatMap(stepKinds)));
  });
});

// ---------------------------------------------------------------------------------------------------------
// Direct tests

async function fillDetails(user: User, details: Partial<Record<WizardDetailField, string>> = {}) {
  for (const [name, value] of Object.entries({ ...validDetails, ...details })) if (value) await user.type(field(name as WizardDetailField), value);
}

describe('the creation wizard (spec §2, §5)', () => {
  it("shows the French errors under the invalid fields after 'Suivant', marking them invalid, and stays on step 1 with the focus on the first", async () => {
    await openWizard(wizardInputs.userByMemberAdmin!);
    const user = userEvent.setup({ delay: null });
    await fillDetails(user, { city: 'L', email: '' });
    // Typed last: the email is not left before 'Suivant', which alone reveals its error.
    await user.type(field('email'), 'zoe.ndiaye@exemple');
    expect(field('email').getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('Adresse email invalide')).toBeNull();
    await user.click(button(t.next));
    expect(stepHeading().textContent).toBe(t.steps.details);
    for (const [name, message] of [
      ['email', 'Adresse email invalide'],
      ['city', 'Minimum 2 caractères requis'],
    ] as const) {
      expect(field(name).getAttribute('aria-invalid'), name).toBe('true');
      expect(reasonOf(field(name)), name).toBe(message);
    }
    for (const name of ['firstName', 'lastName', 'jobTitle', 'street', 'postalCode'] as const) expect(field(name).getAttribute('aria-invalid'), name).toBeNull();
    // The focus on the first invalid field, whose description says what is wrong; then on the next one left.
    expect(document.activeElement).toBe(field('email'));
    await user.clear(field('email'));
    await user.type(field('email'), validDetails.email);
    await user.click(button(t.next));
    expect(document.activeElement).toBe(field('city'));
    await user.type(field('city'), 'yon');
    expect(screen.queryAllByRole('textbox').filter((box) => box.getAttribute('aria-invalid'))).toEqual([]);
    await user.click(button(t.next));
    expect(stepHeading().textContent).toBe(t.steps.sirens);
    expect(document.activeElement).toBe(stepHeading());
  });

  it("keeps 'Suivant' focusable while required fields are empty, saying why, and pressing it does nothing", async () => {
    await openWizard(wizardInputs.userByMemberAdmin!);
    const user = userEvent.setup({ delay: null });
    await fillDetails(user, { city: '' });
    const next = button(t.next);
    expect(unavailable(next)).toBe(true);
    expect(disabled(next)).toBe(false);
    expect(reasonOf(next)).toBe(t.required);
    // From the last field, Tab reaches it ('Étape précédente' is disabled on step 1).
    await user.click(field('city'));
    await user.tab();
    expect(document.activeElement).toBe(next);
    await user.keyboard('{Enter}');
    expect(stepHeading().textContent).toBe(t.steps.details);
    expect(document.activeElement).toBe(next);
    await user.type(field('city'), 'Lyon');
    expect(unavailable(next)).toBe(false);
    expect(reasonOf(next)).toBeNull();
  });

  it("stops at 5 roles, saying 'Vous avez atteint la limite de 5 rôles.' and disabling the others", async () => {
    await openWizard(wizardInputs.userByMemberAdmin!);
    const user = userEvent.setup({ delay: null });
    await fillDetails(user);
    await user.click(button(t.next));
    await user.click(await sirenBox(sirenA.code));
    await user.click(button(t.next));
    await user.click(within(await loadedGroup(sirenA)).getByRole('checkbox', { name: new RegExp(a1.code) }));
    await user.click(button(t.next));
    await rolesShown();
    for (const id of [1, 2, 3, 4, 5]) await user.click(roleBox(id)!);
    expect(screen.getByText('Vous avez atteint la limite de 5 rôles.')).toBeTruthy();
    expect(disabled(roleBox(6)!)).toBe(true);
    expect(disabled(roleBox(5)!)).toBe(false);
    await user.click(roleBox(5)!);
    expect(screen.queryByText('Vous avez atteint la limite de 5 rôles.')).toBeNull();
    expect(disabled(roleBox(6)!)).toBe(false);
  });

  describe('in admin mode, for a member administrator of one SIREN', () => {
    async function reachRoles() {
      const view = await openWizard(wizardInputs.adminByMemberAdmin!);
      const user = userEvent.setup({ delay: null });
      await fillDetails(user);
      await user.click(button(t.next));
      // The only SIREN, chosen by a radio button; no 'select all'.
      expect(screen.getByText(t.sirens.adminHint)).toBeTruthy();
      const radio = within(await sirenList()).getByRole('radio', { name: new RegExp(sirenA.code) });
      expect(checked(radio)).toBe(true);
      expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
      expect(screen.getByText(t.sirens.chosen(1))).toBeTruthy();
      await user.click(button(t.next));
      // Its SIRETs all chosen and locked.
      const region = await loadedGroup(sirenA);
      expect(within(region).getByText(t.siretsLocked)).toBeTruthy();
      for (const siret of [a1, a2]) {
        await waitFor(() => expect(checked(within(region).getByRole('checkbox', { name: new RegExp(siret.code) }))).toBe(true));
        expect(disabled(within(region).getByRole('checkbox', { name: new RegExp(siret.code) }))).toBe(true);
      }
      expect(disabled(selectAllSirets(region, sirenA))).toBe(true);
      await waitFor(() => expect(unavailable(button(t.next))).toBe(false));
      await user.click(button(t.next));
      // The member-administrator role alone, already chosen.
      await rolesShown();
      const adminRole = roleBox(9)!;
      expect(checked(adminRole)).toBe(true);
      expect(screen.getAllByRole('checkbox')).toHaveLength(1);
      return { view, user };
    }

    it("sends a NEW_ADMIN invitation on that SIREN with 'Créer Administrateur', then says 'Invitation envoyée avec succès.' on the users list", async () => {
      const { view, user } = await reachRoles();
      await user.click(button(t.submit.admin));
      expect(await screen.findByText(t.overlay.admin)).toBeTruthy();
      await waitFor(() => expect(view.api.pending()).toHaveLength(1));
      const [creation] = view.api.pending();
      expect(creation!.path).toBe('/api/v2/invitations');
      expect(creation!.query).toEqual({ organizationId: sirenA.id });
      expect(creation!.body).toEqual({
        inviteeEmail: validDetails.email,
        roleCode: 'ADMIN_ADHERENT',
        invitationType: 'NEW_ADMIN',
        metadata: {
          userProfile: { firstName: 'Zoé', lastName: "N'Diaye-Lefèvre", jobTitle: 'Responsable RH & paie', street: '12 rue des Lilas', city: 'Lyon', postalCode: '69003' },
          isNewUser: true,
          senderEmail: 'admin.clinique@portail.test',
        },
      });
      creation!.answer({ status: 201, body: createdInvitation });
      await waitFor(() => expect(view.router.state.location.pathname).toBe('/utilisateurs'));
      expect(await screen.findByText(t.succeeded.admin)).toBeTruthy();
      expect(view.api.creations).toHaveLength(1);
    });

    it("says 'Une invitation est déjà en attente pour cette combinaison.' when the server answers 409, and lets the person try again", async () => {
      const { view, user } = await reachRoles();
      await user.click(button(t.submit.admin));
      await waitFor(() => expect(view.api.pending()).toHaveLength(1));
      view.api.pending()[0]!.answer({ status: 409, body: { error: 'Conflict', message: 'Une invitation est déjà en attente pour cette combinaison (already exists).', requestId: 't' } });
      expect((await screen.findByRole('alert')).textContent).toBe('Une invitation est déjà en attente pour cette combinaison.');
      expect(screen.queryByText(t.overlay.admin)).toBeNull();
      expect(stepHeading().textContent).toBe(t.steps.roles);
      expect(unavailable(button(t.submit.admin))).toBe(false);
    });
  });
});
