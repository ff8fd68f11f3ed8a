// Model-based test harness shared by every machine of the project.
//
// Paths come from xstate/graph (pure traversal with `machine.transition`), then each one is replayed on a
// REAL actor, so entry actions, invoked children and guards run as in the app. Invoked actors must be
// stubs that never settle (supplied by the test through `.provide()`); their done/error events, like the
// delayed `xstate.after.*` events, are sent to the actor directly, and the actor's clock never fires.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createActor } from 'xstate';
import type {
  AnyMachineSnapshot,
  AnyStateMachine,
  AnyStateNode,
  AnyTransitionDefinition,
  EventFromLogic,
  EventObject,
  InputFrom,
  InspectionEvent,
  SnapshotFrom,
  StateValue,
} from 'xstate';
import { getAdjacencyMap, getShortestPaths } from 'xstate/graph';
import type { AdjacencyMap, StatePath, TraversalOptions } from 'xstate/graph';
import { describe, it } from 'vitest';

/** Events the actor system normally produces itself; a model lists them so the graph can explore them. */
export type DoneActorModelEvent = { type: `xstate.done.actor.${string}`; output?: unknown; actorId?: string };
export type ErrorActorModelEvent = { type: `xstate.error.actor.${string}`; error?: unknown; actorId?: string };
export type AfterModelEvent = { type: `xstate.after.${string}` };
export type ModelEvent<TMachine extends AnyStateMachine> =
  | EventFromLogic<TMachine>
  | DoneActorModelEvent
  | ErrorActorModelEvent
  | AfterModelEvent;

export interface MachineModel<TMachine extends AnyStateMachine> {
  /** Already `.provide()`d with stub actors (never settling) if the machine invokes actors. */
  machine: TMachine;
  input?: InputFrom<TMachine>;
  /** Several named inputs: one graph per input, paths and coverage pooled. Replaces `input`. */
  inputs?: Record<string, InputFrom<TMachine>>;
  /**
   * Every event to explore. Only the ones an active state node handles are tried. `xstate.after.*` events
   * of the active states are added when missing; done and error events of invoked actors must be listed
   * (see doneEvent, errorEvent) since they carry data.
   */
  events: ModelEvent<TMachine>[] | ((snapshot: SnapshotFrom<TMachine>) => ModelEvent<TMachine>[]);
  /** Default: JSON of `snapshot.value` plus the `contextKeys` of the context. Must keep the graph finite. */
  serializeState?: (snapshot: SnapshotFrom<TMachine>) => string;
  contextKeys?: string[];
  /** Cap on the simple paths added to the shortest ones; default 200. */
  maxSimplePaths?: number;
  /**
   * What must hold in every snapshot, checked after the start and after each step of every path: the
   * behaviour the chart promises (a path replayed on its own chart only proves reachability). Throw to fail.
   */
  invariant?: (snapshot: SnapshotFrom<TMachine>, lastEvent: ModelEvent<TMachine> | null) => void;
  /** Label of an event in path descriptions; default its type. */
  describeEvent?: (event: ModelEvent<TMachine>) => string;
}

export interface TestStep<TMachine extends AnyStateMachine = AnyStateMachine> {
  event: ModelEvent<TMachine>;
  expectedStateValue: StateValue;
}

export interface TestPath<TMachine extends AnyStateMachine = AnyStateMachine> {
  /** Name of the model input this path starts from, when the model has named `inputs`. */
  inputName?: string;
  input?: InputFrom<TMachine>;
  initialStateValue: StateValue;
  steps: TestStep<TMachine>[];
  finalStateValue: StateValue;
  description: string;
}

export interface ReplayResult<TMachine extends AnyStateMachine = AnyStateMachine> {
  snapshot: SnapshotFrom<TMachine>;
  transitionsTaken: Set<string>;
  statesReached: Set<string>;
}

export interface ModelCoverage {
  machineId: string;
  states: { total: number; reached: number; missing: string[] };
  transitions: { total: number; taken: number; missing: string[] };
  paths: number;
}

/** Numbers of the last coverage run of each machine, by machine id. Also written to test-results/model-coverage. */
export const coverageReport = new Map<string, ModelCoverage>();

const DEFAULT_MAX_SIMPLE_PATHS = 200;
// A serializer that keeps a growing value makes the graph infinite: fail loudly rather than hang.
const TRAVERSAL_LIMIT = 50_000;
const REPORT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-results', 'model-coverage');

export function doneEvent(actorId: string, output?: unknown): DoneActorModelEvent {
  return { type: `xstate.done.actor.${actorId}`, output, actorId };
}

export function errorEvent(actorId: string, error?: unknown): ErrorActorModelEvent {
  return { type: `xstate.error.actor.${actorId}`, error, actorId };
}

/** The event XState raises for `after: { [delay]: ... }` on the state node with id `stateNodeId`. */
export function afterEvent(delay: number | string, stateNodeId: string): AfterModelEvent {
  return { type: `xstate.after.${delay}.${stateNodeId}` };
}

// ---------------------------------------------------------------------------------------------------------
// Static structure

function eventLabel(eventType: string): string {
  return eventType === '' ? 'always' : eventType;
}

/** `${source.id} --${eventType}[#index]--> ${targets or '(internal)'}`; the index only when the event has several. */
export function transitionId(transition: AnyTransitionDefinition): string {
  const source = transition.source;
  const siblings: readonly AnyTransitionDefinition[] =
    (transition.eventType === '' ? source.always : source.transitions.get(transition.eventType)) ?? [];
  const index = siblings.length > 1 ? `#${siblings.indexOf(transition)}` : '';
  const targets = transition.target?.length ? transition.target.map((t) => t.id).join(', ') : '(internal)';
  return `${source.id} --${eventLabel(transition.eventType)}${index}--> ${targets}`;
}

function walk(node: AnyStateNode, visit: (node: AnyStateNode) => void): void {
  visit(node);
  for (const child of Object.values(node.states) as AnyStateNode[]) walk(child, visit);
}

export function allStatesAndTransitions(machine: AnyStateMachine): { states: string[]; transitions: string[] } {
  const states: string[] = [];
  const transitions: string[] = [];
  walk(machine.root, (node) => {
    states.push(node.id);
    for (const list of node.transitions.values()) for (const t of list) transitions.push(transitionId(t));
    for (const t of node.always ?? []) transitions.push(transitionId(t));
  });
  return { states, transitions };
}

// ---------------------------------------------------------------------------------------------------------
// Path generation

function defaultSerializer(contextKeys: readonly string[]) {
  return (snapshot: AnyMachineSnapshot): string => {
    const context = snapshot.context as Record<string, unknown> | undefined;
    const picked = Object.fromEntries(contextKeys.map((key) => [key, context?.[key]]));
    return JSON.stringify(contextKeys.length ? { value: snapshot.value, context: picked } : { value: snapshot.value });
  };
}

function descriptorMatches(descriptor: string, eventType: string): boolean {
  if (descriptor === '*' || descriptor === eventType) return true;
  return descriptor.endsWith('.*') && eventType.startsWith(descriptor.slice(0, -1));
}

function serializeEvent(event: EventObject): string {
  return JSON.stringify(event);
}

interface ResolvedModel {
  serialize: (snapshot: AnyMachineSnapshot) => string;
  eventsFor: (snapshot: AnyMachineSnapshot) => EventObject[];
  starts: { inputName?: string; input?: unknown }[];
}

function resolveModel<TMachine extends AnyStateMachine>(model: MachineModel<TMachine>): ResolvedModel {
  const serialize =
    (model.serializeState as ((snapshot: AnyMachineSnapshot) => string) | undefined) ??
    defaultSerializer(model.contextKeys ?? []);
  const listed = model.events as EventObject[] | ((snapshot: AnyMachineSnapshot) => EventObject[]);
  const eventsFor = (snapshot: AnyMachineSnapshot): EventObject[] => {
    if (snapshot.status !== 'active') return [];
    const handled = [...new Set(snapshot._nodes.flatMap((node) => node.ownEvents as string[]))];
    const candidates = [...(typeof listed === 'function' ? listed(snapshot) : listed)];
    for (const descriptor of handled) {
      if (descriptor.startsWith('xstate.after.') && !candidates.some((e) => e.type === descriptor)) {
        candidates.push({ type: descriptor });
      }
    }
    // Offering only handled events keeps the graph small and avoids, for instance, an unhandled
    // `xstate.error.actor.*` that would put the machine in error.
    return candidates.filter((event) => handled.some((descriptor) => descriptorMatches(descriptor, event.type)));
  };
  const starts = model.inputs
    ? Object.entries(model.inputs).map(([inputName, input]) => ({ inputName, input: input as unknown }))
    : [{ input: model.input as unknown }];
  return { serialize, eventsFor, starts };
}

type GraphPath = StatePath<AnyMachineSnapshot, EventObject>;
type Adjacency = AdjacencyMap<AnyMachineSnapshot, EventObject>;
type Edge = { event: EventObject; state: AnyMachineSnapshot };

function edgesFrom(adjacency: Adjacency, key: string): [string, Edge][] {
  const vertex = adjacency[key as keyof Adjacency];
  return vertex ? (Object.entries(vertex.transitions) as [string, Edge][]) : [];
}

/**
 * The simple paths (no state twice) from the initial state, as xstate/graph's getSimplePaths gives them,
 * but stopping at `cap`: getSimplePaths enumerates them all first, which explodes on dense graphs.
 */
function simplePaths(adjacency: Adjacency, serialize: (s: AnyMachineSnapshot) => string, cap: number): GraphPath[] {
  const [startKey] = Object.keys(adjacency);
  const start = startKey === undefined ? undefined : adjacency[startKey as keyof Adjacency];
  if (startKey === undefined || !start || cap <= 0) return [];
  const found: GraphPath[] = [];
  const onPath = new Set([startKey]);
  const steps = [{ event: { type: 'xstate.init' } as EventObject, state: start.state }];
  const visit = (key: string): void => {
    for (const [, { event, state }] of edgesFrom(adjacency, key)) {
      if (found.length >= cap) return;
      const next = serialize(state);
      if (onPath.has(next)) continue;
      steps.push({ event, state });
      found.push({ state, steps: [...steps], weight: steps.length - 1 });
      onPath.add(next);
      visit(next);
      onPath.delete(next);
      steps.pop();
    }
  };
  visit(startKey);
  return found;
}

/**
 * Shortest paths ∪ simple paths (at most `maxSimplePaths`) ∪ one path per graph edge not yet walked (the shortest path to its
 * source, then its event). The last part takes the edges that loop back to an already visited state
 * (retry, cancel, a delay back to idle), which neither shortest nor simple paths contain.
 * Deduplicated by event sequence; a path that is a prefix of another is dropped (every step is checked).
 */
export function generatePaths<TMachine extends AnyStateMachine>(model: MachineModel<TMachine>): TestPath<TMachine>[] {
  const { serialize, eventsFor, starts } = resolveModel(model);
  const maxSimplePaths = model.maxSimplePaths ?? DEFAULT_MAX_SIMPLE_PATHS;
  const describeEvent = (model.describeEvent as ((event: EventObject) => string) | undefined) ?? ((e) => e.type);
  const machine = model.machine as AnyStateMachine;
  const result: TestPath<TMachine>[] = [];

  for (const { inputName, input } of starts) {
    const options = {
      input,
      events: eventsFor,
      serializeState: (snapshot: AnyMachineSnapshot) => serialize(snapshot),
      serializeEvent,
      limit: TRAVERSAL_LIMIT,
    } as unknown as TraversalOptions<AnyMachineSnapshot, EventObject, unknown>;

    const adjacency = getAdjacencyMap(machine, options) as Adjacency;
    const shortest = getShortestPaths(machine, options) as GraphPath[];
    const candidates = [...shortest, ...simplePaths(adjacency, serialize, maxSimplePaths)];

    // Edges walked so far, as `serializedSource|serializedEvent`.
    const walked = new Set<string>();
    const edgesOf = (path: GraphPath): string[] =>
      path.steps.slice(1).map((step, i) => `${serialize(path.steps[i]!.state)}|${serializeEvent(step.event)}`);
    for (const path of candidates) for (const edge of edgesOf(path)) walked.add(edge);

    const shortestTo = new Map<string, GraphPath>();
    for (const path of shortest) shortestTo.set(serialize(path.state), path);
    for (const sourceKey of Object.keys(adjacency)) {
      const head = shortestTo.get(sourceKey);
      if (!head) continue;
      for (const [eventKey, { event, state }] of edgesFrom(adjacency, sourceKey)) {
        if (walked.has(`${sourceKey}|${eventKey}`)) continue;
        walked.add(`${sourceKey}|${eventKey}`);
        candidates.push({ state, steps: [...head.steps, { event, state }], weight: head.weight + 1 });
      }
    }

    // Graph steps are `{ event, state after it }`, the first being `xstate.init`.
    const sequences = candidates.map((path) => ({ path, events: path.steps.slice(1).map((s) => serializeEvent(s.event)) }));
    sequences.sort((a, b) => b.events.length - a.events.length);
    const kept: typeof sequences = [];
    for (const candidate of sequences) {
      const covered = kept.some(
        (other) => other.events.length >= candidate.events.length && candidate.events.every((e, i) => other.events[i] === e),
      );
      if (!covered) kept.push(candidate);
    }
    kept.sort((a, b) => a.events.length - b.events.length || a.events.join().localeCompare(b.events.join()));

    for (const { path } of kept) {
      const [init, ...rest] = path.steps;
      const steps = rest.map((step) => ({ event: step.event as ModelEvent<TMachine>, expectedStateValue: step.state.value }));
      const finalStateValue = path.state.value;
      const eventsText = rest.length ? rest.map((s) => describeEvent(s.event)).join(' → ') : '(no event)';
      const prefix = inputName === undefined ? '' : `[${inputName}] `;
      result.push({
        ...(inputName === undefined ? {} : { inputName }),
        input: input as InputFrom<TMachine>,
        initialStateValue: (init ?? path).state.value,
        steps,
        finalStateValue,
        description: `${prefix}${eventsText} ⇒ ${JSON.stringify(finalStateValue)}`,
      });
    }
  }

  // Same labels, different payloads: number them so each test has its own name.
  const seen = new Map<string, number>();
  for (const path of result) {
    const count = (seen.get(path.description) ?? 0) + 1;
    seen.set(path.description, count);
    if (count > 1) path.description = `${path.description} (variant ${count})`;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// Replay on a real actor

function stateValuesEqual(a: StateValue | undefined, b: StateValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || typeof a === 'string' || typeof b === 'string') return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => stateValuesEqual(a[key], b[key]));
}

// Delays never elapse on their own: the path sends `xstate.after.*` events itself.
const frozenClock = { setTimeout: () => 0, clearTimeout: () => undefined };

export async function replayPath<TMachine extends AnyStateMachine>(
  model: MachineModel<TMachine>,
  path: TestPath<TMachine>,
): Promise<ReplayResult<TMachine>> {
  const inspected: InspectionEvent[] = [];
  const input = 'input' in path ? path.input : model.input;
  const actor = createActor(model.machine as AnyStateMachine, {
    input,
    clock: frozenClock,
    inspect: (event: InspectionEvent) => inspected.push(event),
  });
  // Without an error observer XState rethrows actor errors asynchronously, outside the test.
  actor.subscribe({ error: () => undefined });

  const check = (expected: StateValue, where: string): void => {
    const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
    if (snapshot.status === 'error') {
      throw new Error(`Path "${path.description}": the actor failed ${where}: ${String(snapshot.error)}`);
    }
    if (!stateValuesEqual(snapshot.value, expected)) {
      throw new Error(
        `Path "${path.description}": ${where}, expected state ${JSON.stringify(expected)} but the actor is in ${JSON.stringify(snapshot.value)}`,
      );
    }
  };
  const holds = (lastEvent: ModelEvent<TMachine> | null, where: string): void => {
    if (!model.invariant) return;
    try {
      model.invariant(actor.getSnapshot() as SnapshotFrom<TMachine>, lastEvent);
    } catch (error) {
      throw new Error(`Path "${path.description}": invariant broken ${where}: ${(error as Error).message}`, { cause: error });
    }
  };

  try {
    actor.start();
    check(path.initialStateValue, 'at start');
    holds(null, 'at start');
    path.steps.forEach((step, i) => {
      actor.send(step.event as EventFromLogic<AnyStateMachine>);
      const where = `after step ${i + 1} (${(step.event as EventObject).type})`;
      check(step.expectedStateValue, where);
      holds(step.event, where);
    });
    const snapshot = actor.getSnapshot() as SnapshotFrom<TMachine>;
    return { snapshot, ...observed(inspected, actor) };
  } finally {
    actor.stop();
  }
}

function observed(inspected: InspectionEvent[], actor: unknown): { transitionsTaken: Set<string>; statesReached: Set<string> } {
  const transitionsTaken = new Set<string>();
  const statesReached = new Set<string>();
  const reach = (snapshot: unknown) => {
    for (const node of (snapshot as Partial<AnyMachineSnapshot>)._nodes ?? []) statesReached.add(node.id);
  };
  for (const event of inspected) {
    if (event.actorRef !== actor) continue; // children's own machines are not this model's
    if (event.type === '@xstate.snapshot') reach(event.snapshot);
    if (event.type !== '@xstate.microstep') continue;
    reach(event.snapshot);
    for (const transition of event._transitions) {
      transitionsTaken.add(transitionId(transition));
      // Taking a transition proves its source was active, which covers a transient initial state.
      statesReached.add(transition.source.id);
      // History nodes are never active; targeting one reaches it.
      for (const target of transition.target ?? []) if (target.type === 'history') statesReached.add(target.id);
    }
  }
  return { transitionsTaken, statesReached };
}

// ---------------------------------------------------------------------------------------------------------
// Coverage

export function computeCoverage(
  machine: AnyStateMachine,
  replays: readonly Pick<ReplayResult, 'transitionsTaken' | 'statesReached'>[],
  paths: number,
): ModelCoverage {
  const all = allStatesAndTransitions(machine);
  const reached = new Set(replays.flatMap((r) => [...r.statesReached]));
  const taken = new Set(replays.flatMap((r) => [...r.transitionsTaken]));
  const missingStates = all.states.filter((id) => !reached.has(id));
  const missingTransitions = all.transitions.filter((id) => !taken.has(id));
  return {
    machineId: machine.id,
    states: { total: all.states.length, reached: all.states.length - missingStates.length, missing: missingStates },
    transitions: {
      total: all.transitions.length,
      taken: all.transitions.length - missingTransitions.length,
      missing: missingTransitions,
    },
    paths,
  };
}

/** Generates the paths (unless given), replays them all and measures what they covered. */
export async function measureCoverage<TMachine extends AnyStateMachine>(
  model: MachineModel<TMachine>,
  paths: TestPath<TMachine>[] = generatePaths(model),
): Promise<ModelCoverage> {
  const replays: ReplayResult<TMachine>[] = [];
  for (const path of paths) replays.push(await replayPath(model, path));
  return computeCoverage(model.machine as AnyStateMachine, replays, paths.length);
}

export function assertFullCoverage(coverage: ModelCoverage): void {
  const lines: string[] = [];
  if (coverage.states.missing.length) {
    lines.push(`states never reached (${coverage.states.missing.length}/${coverage.states.total}):`);
    lines.push(...coverage.states.missing.map((id) => `  - ${id}`));
  }
  if (coverage.transitions.missing.length) {
    lines.push(`transitions never taken (${coverage.transitions.missing.length}/${coverage.transitions.total}):`);
    lines.push(...coverage.transitions.missing.map((id) => `  - ${id}`));
  }
  if (lines.length) {
    throw new Error(
      `Machine "${coverage.machineId}" is not fully covered by its model (${coverage.paths} paths). ` +
        'Unreachable parts are dead chart; otherwise add events, inputs or contextKeys to the model.\n' +
        lines.join('\n'),
    );
  }
}

export function recordCoverage(coverage: ModelCoverage): void {
  coverageReport.set(coverage.machineId, coverage);
  mkdirSync(REPORT_DIR, { recursive: true });
  writeFileSync(join(REPORT_DIR, `${coverage.machineId}.json`), `${JSON.stringify(coverage, null, 2)}\n`);
}

// ---------------------------------------------------------------------------------------------------------
// vitest

export function describeMachineModel<TMachine extends AnyStateMachine>(name: string, model: MachineModel<TMachine>): void {
  describe(name, () => {
    const paths = generatePaths(model);
    for (const path of paths) {
      it(path.description, async () => {
        await replayPath(model, path);
      });
    }
    it('reaches every state and takes every transition', async () => {
      const coverage = await measureCoverage(model, paths);
      recordCoverage(coverage);
      assertFullCoverage(coverage);
    });
  });
}
