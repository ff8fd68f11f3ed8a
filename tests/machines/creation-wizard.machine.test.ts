import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { creationWizardMachine, type SubmitInput, type WizardInput } from '../../src/machines/creation-wizard/creation-wizard.machine';
import { describeMachineModel } from '../model/harness';
import { a1, a2, allRoles, creationWizardModel, sirenA, sirenB, validDetails, wizardInputs } from './creation-wizard.model';

describeMachineModel('creation wizard machine (model)', creationWizardModel);

describe('creation wizard machine', () => {
  const start = (input: WizardInput, submit: (input: SubmitInput) => Promise<void> = () => new Promise(() => {})) => {
    const sent: SubmitInput[] = [];
    const actor = createActor(
      creationWizardMachine.provide({ actors: { submitCreation: fromPromise<void, SubmitInput>(({ input }) => (sent.push(input), submit(input))) } }),
      { input },
    ).start();
    return { actor, sent };
  };
  const fill = (actor: ReturnType<typeof start>['actor']) => {
    for (const [field, value] of Object.entries(validDetails)) actor.send({ type: 'details.change', field: field as keyof typeof validDetails, value });
  };
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('sends one direct creation with the SIRET codes and role ids, once, however often submit is pressed', async () => {
    const { actor, sent } = start(wizardInputs.userByBackOffice!);
    fill(actor);
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'siren.toggle', siren: sirenA });
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'siret.toggle', siret: a2 });
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'roles.offered', roles: allRoles });
    actor.send({ type: 'role.toggle', roleId: 2 });
    actor.send({ type: 'wizard.submit' });
    actor.send({ type: 'wizard.submit' });
    await settle();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.plan).toMatchObject({ kind: 'user', body: { email: 'zoe.ndiaye@exemple.fr', organizationCodes: [a2.code], roleIds: [2] } });
  });

  it('sends an administrator request as a NEW_ADMIN invitation on the only SIREN, with its SIRETs locked and the role chosen', async () => {
    const { actor, sent } = start(wizardInputs.adminByMemberAdmin!, async () => {});
    fill(actor);
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'sirets.loaded', sirenId: sirenA.id, sirets: [a1, a2] });
    actor.send({ type: 'siret.toggle', siret: a1 });
    expect(actor.getSnapshot().context.draft.sirets.map((s) => s.id)).toEqual([a1.id, a2.id]);
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'roles.offered', roles: allRoles });
    actor.send({ type: 'wizard.submit' });
    await settle();
    expect(sent[0]!.plan).toEqual({
      kind: 'invitations',
      invitations: [
        {
          organizationId: sirenA.id,
          organizationCode: sirenA.code,
          body: expect.objectContaining({ inviteeEmail: 'zoe.ndiaye@exemple.fr', roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN' }),
        },
      ],
    });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('keeps the failure message and lets the person submit again', async () => {
    let fail = true;
    const { actor, sent } = start(wizardInputs.adminByBackOffice!, async () => {
      if (fail) throw new Error('Une invitation est déjà en attente pour cette combinaison.');
    });
    fill(actor);
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'siren.choose', siren: sirenB });
    actor.send({ type: 'siren.choose', siren: sirenA });
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'sirets.loaded', sirenId: sirenA.id, sirets: [a1] });
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'roles.offered', roles: allRoles });
    actor.send({ type: 'wizard.submit' });
    await settle();
    expect(actor.getSnapshot().value).toEqual({ editing: 'roles' });
    expect(actor.getSnapshot().context.submitError).toBe('Une invitation est déjà en attente pour cette combinaison.');
    fail = false;
    actor.send({ type: 'wizard.submit' });
    await settle();
    expect(sent).toHaveLength(2);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('refuses an administrator request without a signed-in sender, sending nothing', () => {
    const { actor, sent } = start(wizardInputs.adminWithoutSender!);
    fill(actor);
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'sirets.loaded', sirenId: sirenA.id, sirets: [a1] });
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'roles.offered', roles: allRoles });
    actor.send({ type: 'wizard.submit' });
    expect(actor.getSnapshot().context.refusal).toBe('notSignedIn');
    expect(sent).toHaveLength(0);
  });
});
