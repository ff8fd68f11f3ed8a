// The figures of a lifecycle machine the server drives (issue 24), pure: the machine's states and arrows read from its
// definition, the period asked for, and the figures a source read from the data laid on them. Every state and every
// arrow of the machine is in the answer (zero when nothing is there), and nothing the machine does not have: the
// chart /workflows draws from the same machine carries exactly these numbers.
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { invalid } from '../../core/errors.ts';
import type { CsvColumn } from '../exports/csv.model.ts';
import { DAY_MS } from '../../core/time.ts';

/** The periods offered, in days before now. */
export const FIGURES_DAYS = [7, 30, 90] as const;
export type FiguresDays = (typeof FIGURES_DAYS)[number];
export const DEFAULT_FIGURES_DAYS: FiguresDays = 30;


export const FIGURES_MESSAGES = {
  days: 'La période doit être de 7, 30 ou 90 jours.',
  unknownWorkflow: (id: string) => `Aucun chiffre n'est calculé pour le workflow « ${id} ».`,
} as const;

export interface FiguresPeriod {
  days: FiguresDays;
  /** Inclusive. */
  from: Date;
  /** Exclusive: the moment of the answer. */
  to: Date;
}

/** The period of the last `days` days before `now` (400 naming `days` for another length; the contract refuses it first). */
export function figuresPeriodOf(days: number | undefined, now: Date): FiguresPeriod {
  const wanted = days ?? DEFAULT_FIGURES_DAYS;
  if (!(FIGURES_DAYS as readonly number[]).includes(wanted)) throw invalid([{ field: 'query.days', message: FIGURES_MESSAGES.days }]);
  return { days: wanted as FiguresDays, from: new Date(now.getTime() - wanted * DAY_MS), to: now };
}

/** A transition of the machine: from a state to another, on an event, under a guard (null: none). */
export interface MachineArrow {
  from: string;
  to: string;
  event: string;
  /** By name: two arrows between the same states on the same event (a person's move, the portal's) differ by it. */
  guard: string | null;
}

export interface MachineShape {
  initial: string;
  states: string[];
  arrows: MachineArrow[];
}

const pathOf = (node: AnyStateNode) => node.path.join('.');
const guardOf = (guard: unknown): string | null => (typeof guard === 'string' ? guard : guard && typeof guard === 'object' && 'type' in guard ? String(guard.type) : null);

/** The machine's states (by path, the root aside), its initial state and its arrows, in the definition's order. */
export function machineShape(machine: AnyStateMachine): MachineShape {
  const states: string[] = [];
  const arrows: MachineArrow[] = [];
  const visit = (node: AnyStateNode) => {
    if (node !== machine.root) states.push(pathOf(node));
    for (const transitions of node.transitions.values()) {
      for (const transition of transitions) {
        for (const target of transition.target ?? []) arrows.push({ from: pathOf(node), to: pathOf(target), event: transition.eventType, guard: guardOf(transition.guard) });
      }
    }
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(machine.root);
  const initial = machine.root.initial?.target[0];
  return { initial: initial ? pathOf(initial) : '', states, arrows };
}

/**
 * What a source reads from the data for a period: counts by state now (or, for the states in `periodStates`, whose
 * items no longer exist once there, the items that reached them during the period), entries, and the moves by source,
 * target and, where two arrows join the same states, guard. A move whose count is null is one the data keeps no
 * record of: the answer says so rather than zero.
 */
export interface SourceFigures {
  states: Readonly<Record<string, number>>;
  periodStates?: readonly string[];
  started: number;
  moves: readonly { from: string; to: string; guard?: string; count: number | null; medianSeconds: number | null }[];
}

export type FiguresMeasure = 'now' | 'period';

export interface WorkflowFigures {
  workflowId: string;
  days: FiguresDays;
  from: string;
  to: string;
  started: number;
  states: { state: string; count: number; measure: FiguresMeasure }[];
  transitions: { from: string; to: string; event: string; guard: string | null; count: number | null; medianSeconds: number | null }[];
}

/**
 * The answer: every state and arrow of the machine with the source's numbers. A state or a move the machine does not
 * have means the data and the machine disagree: an error, never a figure drawn nowhere.
 */
export function assembleFigures(workflowId: string, machine: AnyStateMachine, period: FiguresPeriod, source: SourceFigures): WorkflowFigures {
  const shape = machineShape(machine);
  for (const state of Object.keys(source.states)) {
    if (!shape.states.includes(state)) throw new Error(`${workflowId}: the data holds a state the machine does not have: ${state}`);
  }
  const transitions = shape.arrows.map((arrow) => ({ ...arrow, count: 0 as number | null, medianSeconds: null as number | null }));
  for (const move of source.moves) {
    const found = transitions.filter((t) => t.from === move.from && t.to === move.to && (move.guard === undefined || t.guard === move.guard));
    if (found.length !== 1) throw new Error(`${workflowId}: the move ${move.from} → ${move.to}${move.guard ? ` [${move.guard}]` : ''} is not one arrow of the machine`);
    found[0]!.count = move.count;
    found[0]!.medianSeconds = move.count ? move.medianSeconds : null;
  }
  const periodStates = new Set(source.periodStates ?? []);
  return {
    workflowId,
    days: period.days,
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    started: source.started,
    states: shape.states.map((state) => ({ state, count: source.states[state] ?? 0, measure: periodStates.has(state) ? ('period' as const) : ('now' as const) })),
    transitions,
  };
}

/** A line of the figures' CSV file. */
export interface FiguresCsvRow {
  kind: 'État' | 'État (période)' | 'Entrée' | 'Transition';
  from: string;
  to: string;
  event: string;
  guard: string | null;
  /** Null: the move is not recorded (an empty cell). */
  count: number | null;
  medianSeconds: number | null;
  days: number;
}

export const FIGURES_CSV_COLUMNS: readonly CsvColumn<FiguresCsvRow>[] = [
  { header: 'Type', value: (r) => r.kind },
  { header: 'De', value: (r) => r.from },
  { header: 'Vers', value: (r) => r.to },
  { header: 'Événement', value: (r) => r.event },
  { header: 'Condition', value: (r) => r.guard },
  { header: 'Nombre', value: (r) => r.count },
  { header: 'Durée médiane (secondes)', value: (r) => r.medianSeconds },
  { header: 'Période (jours)', value: (r) => r.days },
];

/** The states (their count now, or over the period), the entries of the period (the arrow from the start), then the transitions. */
export function figuresCsvRows(figures: WorkflowFigures, initial: string): FiguresCsvRow[] {
  const days = figures.days;
  const stateKind = (measure: FiguresMeasure) => (measure === 'period' ? ('État (période)' as const) : ('État' as const));
  return [
    ...figures.states.map((s) => ({ kind: stateKind(s.measure), from: '', to: s.state, event: '', guard: null, count: s.count, medianSeconds: null, days })),
    { kind: 'Entrée' as const, from: '', to: initial, event: '', guard: null, count: figures.started, medianSeconds: null, days },
    ...figures.transitions.map((t) => ({ kind: 'Transition' as const, ...t, days })),
  ];
}
