// The states and events of a machine as two tables, French labels from the catalog next to the English
// identifiers of the code: what docs/workflows and the /workflows screen show under each chart.
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { guardText, invokedSources, ownTransitions, statePath, stateNodes, targetsOf, triggerOf, type Trigger } from './transitions';
import type { WorkflowEntry } from './catalog-types';

export interface OutlineState {
  path: string;
  type: AnyStateNode['type'];
  initial: boolean;
  deepHistory: boolean;
  invokes: string[];
}

export interface OutlineArrow {
  /** '' is the machine itself (any state). */
  from: string;
  to: string;
  /** The transition has no target: the state stays as it is (actions only). */
  stays: boolean;
  guard: string | null;
}

export interface OutlineEvent {
  trigger: Trigger;
  arrows: OutlineArrow[];
}

export interface MachineOutline {
  states: OutlineState[];
  /** One entry per chart label, in order of first appearance: `done readToken` from two states is one event. */
  events: OutlineEvent[];
}

export function outlineMachine(machine: AnyStateMachine): MachineOutline {
  const nodes = stateNodes(machine);
  const states = nodes
    .filter((node) => node !== machine.root)
    .map((node) => ({
      path: statePath(node),
      type: node.type,
      initial: node.parent?.initial?.target.includes(node) ?? false,
      deepHistory: node.history === 'deep',
      invokes: invokedSources(node),
    }));
  const events = new Map<string, OutlineEvent>();
  for (const node of nodes) {
    for (const transition of ownTransitions(node)) {
      const trigger = triggerOf(transition);
      const event = events.get(trigger.label) ?? { trigger, arrows: [] };
      events.set(trigger.label, event);
      const stays = !transition.target?.length;
      for (const target of targetsOf(transition)) {
        event.arrows.push({ from: statePath(node), to: statePath(target), stays, guard: guardText(transition.guard) });
      }
    }
  }
  return { states, events: [...events.values()] };
}

export interface LabelledId {
  /** The French label; null when the catalog lacks it. */
  label: string | null;
  id: string;
}

export interface StateRow extends LabelledId {
  nature: string;
  invokes: LabelledId[];
}

export interface EventRow extends LabelledId {
  transitions: string[];
}

export interface WorkflowTables {
  states: StateRow[];
  events: EventRow[];
}

const ANY_STATE = '(tout état)';

function natureOf(state: OutlineState): string {
  const parts: string[] = [];
  if (state.initial) parts.push('initial');
  if (state.type === 'final') parts.push('final');
  if (state.type === 'history') parts.push(state.deepHistory ? 'historique profond' : 'historique');
  if (state.type === 'compound') parts.push('composé');
  if (state.type === 'parallel') parts.push('parallèle');
  return parts.join(', ');
}

function delayText(delay: string): string {
  if (!/^\d+$/.test(delay)) return `le délai ${delay}`;
  const ms = Number(delay);
  return ms < 1000 ? `${ms} ms` : `${String(ms / 1000).replace('.', ',')} s`;
}

/** The French label of what triggers a transition: the catalog's for events, derived for the others. */
export function triggerLabel(entry: WorkflowEntry, trigger: Trigger, actorOf: (invokeId: string) => string): string | null {
  const actor = () => entry.actors[actorOf(trigger.name)];
  switch (trigger.kind) {
    case 'event':
      return entry.events[trigger.name] ?? null;
    case 'always':
      return 'Aussitôt, sans événement';
    case 'after':
      return `Après ${delayText(trigger.name)}`;
    case 'done':
      return actor() ? `Succès : ${actor()}` : null;
    case 'error':
      return actor() ? `Échec : ${actor()}` : null;
    case 'stateDone':
      return entry.states[trigger.name] ? `Fin de « ${entry.states[trigger.name]} »` : null;
  }
}

/** Invoke ids to actor sources (done and error events name the invoke id). */
function invokeSources(machine: AnyStateMachine): (invokeId: string) => string {
  const sources = new Map<string, string>();
  for (const node of stateNodes(machine)) {
    for (const invoke of node.invoke as { id: string; src: unknown }[]) sources.set(invoke.id, typeof invoke.src === 'string' ? invoke.src : invoke.id);
  }
  return (invokeId) => sources.get(invokeId) ?? invokeId;
}

export function workflowTables(entry: WorkflowEntry): WorkflowTables {
  const outline = outlineMachine(entry.machine);
  const actorOf = invokeSources(entry.machine);
  const name = (path: string) => path || ANY_STATE;
  const states = outline.states.map((state) => ({
    label: entry.states[state.path] ?? null,
    id: state.path,
    nature: natureOf(state),
    invokes: state.invokes.map((src) => ({ label: entry.actors[src] ?? null, id: src })),
  }));
  const events = outline.events.map(({ trigger, arrows }) => ({
    label: triggerLabel(entry, trigger, actorOf),
    id: trigger.label,
    transitions: arrows.map(({ from, to, stays, guard }) => `${name(from)} → ${stays ? `${name(to)} (sans changement d'état)` : name(to)}${guard ? ` [${guard}]` : ''}`),
  }));
  return { states, events };
}

/** What the catalog entry lacks (or names in vain) for the tables to be complete. */
export function catalogProblems(entry: WorkflowEntry): string[] {
  const outline = outlineMachine(entry.machine);
  const states = outline.states.map((s) => s.path);
  const events = [...new Set(outline.events.filter((e) => e.trigger.kind === 'event').map((e) => e.trigger.name))];
  const actors = [...new Set(outline.states.flatMap((s) => s.invokes))];
  const problems: string[] = [];
  const compare = (kind: string, wanted: string[], labels: Record<string, string>) => {
    for (const id of wanted) if (!labels[id]) problems.push(`no French label for the ${kind} '${id}'`);
    for (const id of Object.keys(labels)) if (!wanted.includes(id)) problems.push(`a label for the ${kind} '${id}', which the machine does not have`);
  };
  compare('state', states, entry.states);
  compare('event', events, entry.events);
  compare('actor', actors, entry.actors);
  if (entry.screens.length === 0) problems.push('no screen named');
  return problems;
}
