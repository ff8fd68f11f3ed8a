import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { editTabsMachine, type LoadInput, type SaveInput } from '../../src/machines/edit-tabs/edit-tabs.machine';
import { saveBlock } from '../../src/domain/user-edit';
import { describeMachineModel } from '../model/harness';
import { a1, a2, b1, backOffice, byId, ids, memberAdmin, model, never, sirenA, sirenB, siretHolder, stale } from './edit-tabs.model';

describeMachineModel('edit tabs machine (model)', model);

describe('edit tabs machine', () => {
  const start = (input: LoadInput, saveUser = never<void, SaveInput>()) => {
    const actor = createActor(editTabsMachine.provide({ actors: { loadUser: fromPromise(async () => byId[input.userId]!), saveUser } }), { input }).start();
    return actor;
  };
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('sends the version loaded, the SIREN and SIRET codes and the roles', async () => {
    let sent: SaveInput | null = null;
    const actor = start({ userId: 'u-siret', editor: backOffice }, fromPromise<void, SaveInput>(async ({ input }) => void (sent = input)));
    await settle();
    actor.send({ type: 'tab.select', tab: 'siret' });
    actor.send({ type: 'siret.toggle', siret: a2 });
    actor.send({ type: 'edit.save' });
    await settle();
    expect(actor.getSnapshot().value).toBe('saved');
    expect(sent!.version).toBe(3);
    expect(sent!.form.sirets.map((s) => s.code)).toEqual([a1.code, a2.code]);
  });

  it('expands the locked SIRENs of an administrator when their SIRETs load, without counting it as a change', async () => {
    const actor = start({ userId: 'u-admin', editor: backOffice });
    await settle();
    actor.send({ type: 'tab.select', tab: 'roles' });
    expect(actor.getSnapshot().value).toEqual({ editing: 'details' });
    actor.send({ type: 'sirets.loaded', sirenId: sirenA.id, sirets: [a1, a2] });
    expect(ids(actor.getSnapshot().context.form.sirets)).toEqual([a1.id, a2.id]);
    expect(saveBlock(actor.getSnapshot().context.form, actor.getSnapshot().context.initial)).toBe('noChange');
    actor.send({ type: 'tab.select', tab: 'roles' });
    expect(actor.getSnapshot().value).toEqual({ editing: 'roles' });
  });

  it('refuses a sixth role', async () => {
    const actor = start({ userId: 'u-roles', editor: memberAdmin });
    await settle();
    actor.send({ type: 'tab.select', tab: 'roles' });
    actor.send({ type: 'role.toggle', roleId: 5 });
    actor.send({ type: 'role.toggle', roleId: 6 });
    expect([...actor.getSnapshot().context.form.roleIds].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('after a stale save, reloading restarts the form from the server', async () => {
    let loads = 0;
    const actor = createActor(
      editTabsMachine.provide({
        actors: {
          loadUser: fromPromise(async () => ((loads += 1), { ...siretHolder, version: 3 + loads })),
          saveUser: fromPromise<void, SaveInput>(async () => Promise.reject(stale)),
        },
      }),
      { input: { userId: 'u-siret', editor: backOffice } },
    ).start();
    await settle();
    actor.send({ type: 'tab.select', tab: 'siren' });
    actor.send({ type: 'siren.remove', sirenId: sirenA.id });
    actor.send({ type: 'siren.add', siren: sirenB });
    actor.send({ type: 'tab.select', tab: 'siret' });
    actor.send({ type: 'siret.toggle', siret: b1 });
    actor.send({ type: 'edit.save' });
    await settle();
    expect(actor.getSnapshot().value).toBe('stale');
    actor.send({ type: 'edit.reload' });
    await settle();
    expect(actor.getSnapshot().value).toEqual({ editing: 'details' });
    expect(actor.getSnapshot().context.user?.version).toBe(5);
    expect(ids(actor.getSnapshot().context.form.sirens)).toEqual([sirenA.id]);
  });
});
