import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import {
  allStatesAndTransitions,
  assertFullCoverage,
  doneEvent,
  errorEvent,
  generatePaths,
  measureCoverage,
  replayPath,
  type MachineModel,
  type TestPath,
} from './harness';

// A promise actor, an `after` delay and loops back to visited states (retry, delay back to idle).
const fetchMachine = setup({
  types: {} as { context: { value: number | null }; events: { type: 'fetch.start' } | { type: 'fetch.retry' } },
  actors: { loadValue: fromPromise(async () => 42) },
}).createMachine({
  id: 'fetchFixture',
  context: { value: null },
  initial: 'idle',
  states: {
    idle: { on: { 'fetch.start': 'fetching' } },
    fetching: {
      invoke: {
        id: 'load',
        src: 'loadValue',
        onDone: { target: 'showing', actions: assign({ value: ({ event }) => event.output }) },
        onError: 'failing',
      },
    },
    showing: { after: { 3000: 'idle' } },
    failing: { on: { 'fetch.retry': 'fetching' } },
  },
});

const fetchModel: MachineModel<typeof fetchMachine> = {
  machine: fetchMachine.provide({ actors: { loadValue: fromPromise(() => new Promise<number>(() => {})) } }),
  // No `xstate.after.*` listed: the harness adds the delayed events of the active states itself.
  events: [{ type: 'fetch.start' }, { type: 'fetch.retry' }, doneEvent('load', 7), errorEvent('load', new Error('boom'))],
};

const toggleEvents = [{ type: 'toggle.flip' }, { type: 'toggle.poke' }] as const;
type ToggleEvent = (typeof toggleEvents)[number];

const unreachableStateMachine = setup({ types: {} as { events: ToggleEvent } }).createMachine({
  id: 'unreachableFixture',
  initial: 'off',
  states: {
    off: { on: { 'toggle.flip': 'on' } },
    on: { on: { 'toggle.flip': 'off' } },
    forgotten: { on: { 'toggle.flip': 'off' } },
  },
});

const deadTransitionMachine = setup({
  types: {} as { events: ToggleEvent },
  guards: { isNever: () => false },
}).createMachine({
  id: 'deadTransitionFixture',
  initial: 'off',
  states: {
    off: { on: { 'toggle.flip': 'on', 'toggle.poke': { guard: 'isNever', target: 'on' } } },
    on: { on: { 'toggle.flip': 'off' } },
  },
});

describe('allStatesAndTransitions', () => {
  it('lists every state node id and every transition, delayed and invoke ones included', () => {
    const { states, transitions } = allStatesAndTransitions(fetchMachine);
    expect(states).toEqual([
      'fetchFixture',
      'fetchFixture.idle',
      'fetchFixture.fetching',
      'fetchFixture.showing',
      'fetchFixture.failing',
    ]);
    expect(transitions.sort()).toEqual(
      [
        'fetchFixture.idle --fetch.start--> fetchFixture.fetching',
        'fetchFixture.fetching --xstate.done.actor.load--> fetchFixture.showing',
        'fetchFixture.fetching --xstate.error.actor.load--> fetchFixture.failing',
        'fetchFixture.showing --xstate.after.3000.fetchFixture.showing--> fetchFixture.idle',
        'fetchFixture.failing --fetch.retry--> fetchFixture.fetching',
      ].sort(),
    );
  });

  it('numbers transitions sharing an event and names eventless ones "always"', () => {
    const machine = setup({ guards: { isReady: () => true } }).createMachine({
      id: 'numbered',
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'isReady', target: 'done' }, { target: 'waiting' }] },
        waiting: {},
        done: {},
      },
    });
    expect(allStatesAndTransitions(machine).transitions).toEqual([
      'numbered.deciding --always#0--> numbered.done',
      'numbered.deciding --always#1--> numbered.waiting',
    ]);
  });
});

describe('generatePaths', () => {
  it('describes each path by its events and final state', () => {
    const descriptions = generatePaths(fetchModel).map((p) => p.description);
    expect(descriptions).toContain('fetch.start → xstate.done.actor.load → xstate.after.3000.fetchFixture.showing ⇒ "idle"');
  });

  it('includes the edges that loop back to a visited state, which shortest and simple paths miss', () => {
    const sequences = generatePaths(fetchModel).map((p) => p.steps.map((s) => s.event.type).join(' '));
    expect(sequences).toContain('fetch.start xstate.error.actor.load fetch.retry');
    expect(sequences).toContain('fetch.start xstate.done.actor.load xstate.after.3000.fetchFixture.showing');
  });

  it('keeps no path that is a prefix of another', () => {
    const sequences = generatePaths(fetchModel).map((p) => p.steps.map((s) => JSON.stringify(s.event)));
    for (const [i, a] of sequences.entries()) {
      for (const [j, b] of sequences.entries()) {
        if (i !== j) expect(a.length <= b.length && a.every((e, k) => b[k] === e)).toBe(false);
      }
    }
  });

  it('caps the simple paths of a dense graph without enumerating them all, keeping full coverage', async () => {
    // Nine states, each reachable from every other: about 9! simple paths.
    const names = ['s0', 's1', 's2', 's3', 's4', 's5', 's6', 's7', 's8'] as const;
    const events = names.map((name) => ({ type: `go.${name}` }) as const);
    const on = Object.fromEntries(names.map((name) => [`go.${name}`, `.${name}`]));
    const clique = setup({ types: {} as { events: (typeof events)[number] } }).createMachine({
      id: 'clique',
      initial: 's0',
      on,
      states: Object.fromEntries(names.map((name) => [name, {}])),
    });
    const model = { machine: clique, events, maxSimplePaths: 30 };
    const paths = generatePaths(model);
    expect(paths.length).toBeLessThanOrEqual(names.length + 30 + names.length ** 2);
    assertFullCoverage(await measureCoverage(model, paths));
  });

  it('fails loudly when the state key keeps growing instead of hanging', () => {
    const counter = setup({
      types: {} as { context: { n: number }; events: { type: 'count.up' } },
    }).createMachine({
      id: 'counter',
      context: { n: 0 },
      on: { 'count.up': { actions: assign({ n: ({ context }) => context.n + 1 }) } },
    });
    expect(() => generatePaths({ machine: counter, events: [{ type: 'count.up' }], contextKeys: ['n'] })).toThrow(
      /Traversal limit exceeded/,
    );
  });
});

describe('replayPath', () => {
  // Generated paths end after the delay; stop this one at `showing`.
  const pathToShowing = (): TestPath<typeof fetchMachine> => {
    const path = generatePaths(fetchModel).find((p) => p.steps[1]?.event.type === 'xstate.done.actor.load');
    if (!path) throw new Error('no generated path through xstate.done.actor.load');
    return { ...path, steps: path.steps.slice(0, 2), finalStateValue: 'showing' };
  };

  it('replays a path on a real actor, done events carrying their output into the context', async () => {
    const { snapshot, transitionsTaken } = await replayPath(fetchModel, pathToShowing());
    expect(snapshot.value).toBe('showing');
    expect(snapshot.context.value).toBe(7);
    expect([...transitionsTaken]).toEqual([
      'fetchFixture.idle --fetch.start--> fetchFixture.fetching',
      'fetchFixture.fetching --xstate.done.actor.load--> fetchFixture.showing',
    ]);
  });

  it('rejects, naming the step, when the actor is not in the expected state', async () => {
    const path = pathToShowing();
    const wrong: TestPath<typeof fetchMachine> = {
      ...path,
      steps: path.steps.map((step, i) => (i === path.steps.length - 1 ? { ...step, expectedStateValue: 'failing' } : step)),
    };
    await expect(replayPath(fetchModel, wrong)).rejects.toThrow(
      /after step 2 \(xstate\.done\.actor\.load\), expected state "failing" but the actor is in "showing"/,
    );
  });

  it('rejects, naming the step, when the model invariant breaks', async () => {
    const strict: MachineModel<typeof fetchMachine> = {
      ...fetchModel,
      invariant: (snapshot) => {
        if (snapshot.matches('showing') && snapshot.context.value !== 8) throw new Error('shows a value other than 8');
      },
    };
    await expect(replayPath(strict, pathToShowing())).rejects.toThrow(/invariant broken after step 2 \(xstate\.done\.actor\.load\): shows a value other than 8/);
  });

  it('rejects when the initial state differs', async () => {
    const path = generatePaths(fetchModel)[0]!;
    await expect(replayPath(fetchModel, { ...path, initialStateValue: 'fetching' })).rejects.toThrow(/at start/);
  });
});

describe('coverage', () => {
  it('covers every state and transition of a machine with a promise actor and an after delay', async () => {
    const coverage = await measureCoverage(fetchModel);
    expect(() => assertFullCoverage(coverage)).not.toThrow();
    expect(coverage.states).toEqual({ total: 5, reached: 5, missing: [] });
    expect(coverage.transitions).toEqual({ total: 5, taken: 5, missing: [] });
  });

  it('fails on a state no event leads to, naming it', async () => {
    const coverage = await measureCoverage({ machine: unreachableStateMachine, events: [...toggleEvents] });
    expect(coverage.states.missing).toEqual(['unreachableFixture.forgotten']);
    expect(() => assertFullCoverage(coverage)).toThrow(
      /states never reached \(1\/4\):\n {2}- unreachableFixture\.forgotten\ntransitions never taken \(1\/3\):\n {2}- unreachableFixture\.forgotten --toggle\.flip--> unreachableFixture\.off/,
    );
  });

  it('fails on a transition whose guard never holds, although every state is reached', async () => {
    const coverage = await measureCoverage({ machine: deadTransitionMachine, events: [...toggleEvents] });
    expect(coverage.states.missing).toEqual([]);
    expect(() => assertFullCoverage(coverage)).toThrow(
      /transitions never taken \(1\/3\):\n {2}- deadTransitionFixture\.off --toggle\.poke--> deadTransitionFixture\.on/,
    );
  });

  it('fails on a transition whose event the model does not list', async () => {
    const coverage = await measureCoverage({ machine: fetchModel.machine, events: [{ type: 'fetch.start' }, doneEvent('load', 1)] });
    expect(coverage.states.missing).toEqual(['fetchFixture.failing']);
    expect(coverage.transitions.missing).toEqual([
      'fetchFixture.fetching --xstate.error.actor.load--> fetchFixture.failing',
      'fetchFixture.failing --fetch.retry--> fetchFixture.fetching',
    ]);
  });
});
