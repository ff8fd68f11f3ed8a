// The Mermaid stateDiagram-v2 of an XState v5 machine, written from its definition: never drawn by hand.
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { guardText, invokedSources, ownTransitions, statePath, stateNodes, targetsOf, triggerOf } from './transitions';
import type { ChartFigures } from './figures-annotation';

// Words of the stateDiagram grammar that cannot name a state.
const RESERVED = new Set(['state', 'note', 'end', 'direction', 'class', 'classDef', 'style', 'as', 'click', 'left', 'right', 'of']);

/** Mermaid reads `;` as a line end and `#…;` as an entity: spell them as entities. */
const ENTITIES: Record<string, string> = { '#': '#35;', ';': '#59;', '"': '#quot;', ':': '#58;' };
function escapeText(text: string): string {
  return text.replace(/[#;":]/g, (c) => ENTITIES[c]!);
}

/** One Mermaid identifier per state node: its path joined with `_`, made unique. */
function mermaidIds(machine: AnyStateMachine): { idOf: (node: AnyStateNode) => string; anyStateId: string } {
  const taken = new Set<string>();
  const unique = (wanted: string) => {
    let id = /^[A-Za-z_]/.test(wanted) ? wanted : `s_${wanted}`;
    if (RESERVED.has(id)) id = `${id}_`;
    let candidate = id;
    for (let n = 2; taken.has(candidate); n += 1) candidate = `${id}_${n}`;
    taken.add(candidate);
    return candidate;
  };
  const ids = new Map<AnyStateNode, string>();
  for (const node of stateNodes(machine)) {
    if (node !== machine.root) ids.set(node, unique(node.path.join('_').replace(/[^A-Za-z0-9_]/g, '_')));
  }
  const anyStateId = unique('any_state');
  return { idOf: (node) => (node === machine.root ? anyStateId : ids.get(node)!), anyStateId };
}

function isAncestor(ancestor: AnyStateNode, node: AnyStateNode): boolean {
  for (let current: AnyStateNode | undefined = node.parent; current; current = current.parent) if (current === ancestor) return true;
  return false;
}

/** The block an arrow is written in: the deepest state containing both ends (Mermaid places a state where it first sees it). */
function blockOf(source: AnyStateNode, target: AnyStateNode): AnyStateNode {
  let block: AnyStateNode = source.parent ?? source;
  while (block.parent && !isAncestor(block, target)) block = block.parent;
  return block;
}

function stateLabel(node: AnyStateNode): string {
  if (node.type === 'history') return `${node.key} (${node.history === 'deep' ? 'H*' : 'H'})`;
  const invoked = invokedSources(node);
  return invoked.length ? `${node.key} (invoke ${invoked.join(', ')})` : node.key;
}

/**
 * The chart: nested states as blocks, initial states from `[*]`, final states to `[*]`, every transition
 * labelled with its event (`always`, `after N ms`, `done <invoke id>`, `error <invoke id>`) and guard by
 * name, invoked actors by src, history states as `key (H)`. Transitions of the machine itself start
 * from an `(any state)` node; a transition without target loops on its source.
 * With `figures` (issue 24: a lifecycle machine the server drives), each state's figure follows its name, each arrow's
 * its label, and the start's arrow gets its own label.
 */
export function machineToMermaid(machine: AnyStateMachine, figures?: ChartFigures): string {
  const { idOf, anyStateId } = mermaidIds(machine);
  const arrows = new Map<AnyStateNode, string[]>();
  for (const node of stateNodes(machine)) {
    for (const transition of ownTransitions(node)) {
      const guard = guardText(transition.guard);
      const text = `${triggerOf(transition).label}${guard ? ` [${guard}]` : ''}`;
      for (const target of targetsOf(transition)) {
        const block = node === machine.root ? machine.root : blockOf(node, target);
        const figure = figures?.arrow(statePath(node), statePath(target), transition.eventType, guard);
        const label = escapeText(figure ? `${text} · ${figure}` : text);
        arrows.set(block, [...(arrows.get(block) ?? []), `${idOf(node)} --> ${idOf(target)}: ${label}`]);
      }
    }
  }

  const lines = ['stateDiagram-v2'];
  const emit = (parent: AnyStateNode, depth: number) => {
    const pad = '  '.repeat(depth);
    if (parent.type === 'compound' && parent.initial?.target.length) {
      const start = parent === machine.root && figures?.start ? `: ${escapeText(figures.start)}` : '';
      lines.push(`${pad}[*] --> ${idOf(parent.initial.target[0]!)}${start}`);
    }
    if (parent === machine.root && ownTransitions(parent).length) lines.push(`${pad}state "(any state)" as ${anyStateId}`);
    const children = Object.values(parent.states) as AnyStateNode[];
    children.forEach((child, index) => {
      // Mermaid separates regions only inside a composite state; a parallel machine's regions just sit side by side.
      if (parent.type === 'parallel' && parent !== machine.root && index > 0) lines.push(`${pad}--`);
      const id = idOf(child);
      // A note of its own (`id : text`) would replace the state's name in the drawing: the figure follows the name.
      const note = figures?.states[statePath(child)];
      const label = note ? `${stateLabel(child)} · ${note}` : stateLabel(child);
      const declared = label === id ? id : `state "${escapeText(label)}" as ${id}`;
      if (child.type === 'compound' || child.type === 'parallel') {
        lines.push(`${pad}${label === id ? `state ${id}` : declared} {`);
        emit(child, depth + 1);
        lines.push(`${pad}}`);
      } else {
        lines.push(`${pad}${declared}`);
      }
      if (child.type === 'final') lines.push(`${pad}${id} --> [*]`);
    });
    for (const arrow of arrows.get(parent) ?? []) lines.push(`${pad}${arrow}`);
  };
  emit(machine.root, 1);
  return `${lines.join('\n')}\n`;
}
