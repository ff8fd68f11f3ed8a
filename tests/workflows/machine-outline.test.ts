import { describe, expect, it } from 'vitest';
import { fromPromise, setup } from 'xstate';
import { catalogProblems, workflowTables } from '../../src/workflows/machine-outline';
import type { WorkflowEntry } from '../../src/workflows/catalog-types';

const machine = setup({ actors: { loadValue: fromPromise(async () => 1) }, guards: { isEmpty: () => false } }).createMachine({
  id: 'fetch',
  initial: 'idle',
  on: { 'fetch.touch': { actions: () => {} } },
  states: {
    idle: { on: { 'fetch.start': 'loading' } },
    loading: {
      invoke: { id: 'load', src: 'loadValue', onDone: [{ guard: 'isEmpty', target: 'idle' }, { target: 'shown' }], onError: 'idle' },
    },
    shown: {
      initial: 'fresh',
      states: { fresh: { after: { 1500: 'old' } }, old: {}, back: { type: 'history' } },
      always: { guard: 'isEmpty', target: 'done' },
    },
    done: { type: 'final' },
  },
});

const entry: WorkflowEntry = {
  machine,
  title: 'Chargement',
  description: 'Un chargement.',
  screens: [{ path: '/exemple', name: 'Exemple' }],
  states: { idle: 'Au repos', loading: 'Chargement', shown: 'Affiché', 'shown.fresh': 'Récent', 'shown.old': 'Ancien', 'shown.back': 'Dernier sous-état', done: 'Terminé' },
  events: { 'fetch.start': 'Charger', 'fetch.touch': 'Toucher' },
  actors: { loadValue: 'Charger la valeur' },
};

describe('workflowTables', () => {
  it('lists every state with its French label, identifier, nature and invoked actor', () => {
    expect(workflowTables(entry).states).toEqual([
      { label: 'Au repos', id: 'idle', nature: 'initial', invokes: [] },
      { label: 'Chargement', id: 'loading', nature: '', invokes: [{ label: 'Charger la valeur', id: 'loadValue' }] },
      { label: 'Affiché', id: 'shown', nature: 'composé', invokes: [] },
      { label: 'Récent', id: 'shown.fresh', nature: 'initial', invokes: [] },
      { label: 'Ancien', id: 'shown.old', nature: '', invokes: [] },
      { label: 'Dernier sous-état', id: 'shown.back', nature: 'historique', invokes: [] },
      { label: 'Terminé', id: 'done', nature: 'final', invokes: [] },
    ]);
  });

  it("groups each event's transitions, names the derived ones in French and the machine's own as '(tout état)'", () => {
    expect(workflowTables(entry).events).toEqual([
      { label: 'Toucher', id: 'fetch.touch', transitions: ["(tout état) → (tout état) (sans changement d'état)"] },
      { label: 'Charger', id: 'fetch.start', transitions: ['idle → loading'] },
      { label: 'Succès : Charger la valeur', id: 'done load', transitions: ['loading → idle [isEmpty]', 'loading → shown'] },
      { label: 'Échec : Charger la valeur', id: 'error load', transitions: ['loading → idle'] },
      { label: 'Aussitôt, sans événement', id: 'always', transitions: ['shown → done [isEmpty]'] },
      { label: 'Après 1,5 s', id: 'after 1500 ms', transitions: ['shown.fresh → shown.old'] },
    ]);
  });

  it('leaves a missing label empty rather than inventing one', () => {
    const tables = workflowTables({ ...entry, events: {}, actors: {} });
    expect(tables.events.find((e) => e.id === 'fetch.start')?.label).toBeNull();
    expect(tables.events.find((e) => e.id === 'done load')?.label).toBeNull();
    expect(tables.states[1]?.invokes).toEqual([{ label: null, id: 'loadValue' }]);
  });
});

describe('catalogProblems', () => {
  it('finds nothing to say about a complete entry', () => {
    expect(catalogProblems(entry)).toEqual([]);
  });

  it('lists missing labels, labels of things the machine does not have, and a missing screen', () => {
    const { 'shown.old': _old, ...states } = entry.states;
    expect(catalogProblems({ ...entry, states: { ...states, gone: 'Disparu' }, events: { 'fetch.start': 'Charger' }, actors: {}, screens: [] })).toEqual([
      "no French label for the state 'shown.old'",
      "a label for the state 'gone', which the machine does not have",
      "no French label for the event 'fetch.touch'",
      "no French label for the actor 'loadValue'",
      'no screen named',
    ]);
  });
});
