// Reading an XState v5 machine definition: its state nodes, transitions, events and guards, as the
// charts (mermaid-chart.ts) and the tables (machine-outline.ts) show them. Pure: no actor is started.
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

/** What triggers a transition, as analysts read it. */
export type TriggerKind = 'event' | 'always' | 'after' | 'done' | 'error' | 'stateDone';

export interface Trigger {
  kind: TriggerKind;
  /** The XState event descriptor ('' for `always`). */
  eventType: string;
  /** The event type; the invoke id (done, error); the delay (after); the state path (stateDone). */
  name: string;
  /** The chart's label: `wizard.next`, `always`, `after 1000 ms`, `done loadUser`, `error loadUser`. */
  label: string;
}

export function stateNodes(machine: AnyStateMachine): AnyStateNode[] {
  const nodes: AnyStateNode[] = [];
  const visit = (node: AnyStateNode) => {
    nodes.push(node);
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(machine.root);
  return nodes;
}

/** `editing.details`; the root is ''. */
export function statePath(node: AnyStateNode): string {
  return node.path.join('.');
}

/** The node's own transitions, in definition order: `on` and invoke/after/done ones, then `always`. */
export function ownTransitions(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
}

export function triggerOf(transition: AnyTransitionDefinition): Trigger {
  const eventType = transition.eventType;
  const source = transition.source;
  if (eventType === '') return { kind: 'always', eventType, name: '', label: 'always' };
  if (eventType.startsWith('xstate.after.')) {
    const delayed = (source.after ?? []).find((t: AnyTransitionDefinition) => t.eventType === eventType) as { delay?: unknown } | undefined;
    const delay = String(delayed?.delay ?? eventType.slice('xstate.after.'.length).split('.')[0]);
    return { kind: 'after', eventType, name: delay, label: /^\d+$/.test(delay) ? `after ${delay} ms` : `after ${delay}` };
  }
  for (const [prefix, kind] of [['xstate.done.actor.', 'done'], ['xstate.error.actor.', 'error']] as const) {
    if (eventType.startsWith(prefix)) {
      const name = eventType.slice(prefix.length);
      return { kind, eventType, name, label: `${kind} ${name}` };
    }
  }
  if (eventType.startsWith('xstate.done.state.')) {
    const path = eventType.slice('xstate.done.state.'.length).split('.').slice(1).join('.');
    return { kind: 'stateDone', eventType, name: path, label: `done ${path}` };
  }
  return { kind: 'event', eventType, name: eventType, label: eventType };
}

type GuardLike = string | { type: string } | ((...args: never[]) => unknown) | undefined;

/** A guard by name; higher-order guards spelled out (`!a`, `a && b`, `a || b`, `in "x"`). */
export function guardText(guard: unknown): string | null {
  const g = guard as GuardLike;
  if (g === undefined || g === null) return null;
  if (typeof g === 'string') return g;
  if (typeof g === 'object') return g.type;
  const composite = g as unknown as { guards?: unknown[]; stateValue?: unknown };
  const parts = (composite.guards ?? []).map((inner) => {
    const text = guardText(inner) ?? 'inline';
    return /\s/.test(text) ? `(${text})` : text;
  });
  if (g.name === 'not') return `!${parts[0]}`;
  if (g.name === 'and') return parts.join(' && ');
  if (g.name === 'or') return parts.join(' || ');
  if (g.name === 'stateIn') return `in ${typeof composite.stateValue === 'string' ? composite.stateValue : JSON.stringify(composite.stateValue)}`;
  return g.name || 'inline';
}

/** The transition's targets; a targetless one stays in its source. */
export function targetsOf(transition: AnyTransitionDefinition): AnyStateNode[] {
  return transition.target?.length ? [...transition.target] : [transition.source];
}

/** The actors a state invokes, by src (the name given in `setup({ actors })`). */
export function invokedSources(node: AnyStateNode): string[] {
  return node.invoke.map((invoke: { src: unknown; id: string }) => (typeof invoke.src === 'string' ? invoke.src : invoke.id));
}
