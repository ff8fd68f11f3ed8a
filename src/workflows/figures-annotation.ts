// The figures of a lifecycle machine the server drives (issue 24), made into what /workflows shows: the notes drawn on
// the machine's generated chart (mermaid-chart.ts) and the rows of the table beside it. Pure: the figures come from the
// server (GET /api/v2/workflows/{id}/figures), the labels from the catalog.
import { frWorkflows } from '../i18n/fr-workflows';
import type { WorkflowEntry } from './catalog-types';

const t = frWorkflows.figures;

/** The server's figures, as the contract's WorkflowFigures gives them. */
export interface FiguresData {
  days: number;
  started: number;
  states: readonly { state: string; count: number; measure: 'now' | 'period' }[];
  /** `guard`: two arrows between the same states on the same event differ by it; `count` null: the move is not recorded. */
  transitions: readonly { from: string; to: string; event: string; guard: string | null; count: number | null; medianSeconds: number | null }[];
}

/** What the chart carries besides the machine: a note per state, a text added to arrows, a label on the start's arrow. */
export interface ChartFigures {
  states: Readonly<Record<string, string>>;
  arrow: (from: string, to: string, eventType: string, guard: string | null) => string | null;
  start: string | null;
}

/** A time in French, to the minute, the hour past a day: 45 s, 12 min, 3 h, 5 h 30 min, 30 j, 2 j 4 h. */
export function frenchDuration(seconds: number): string {
  if (Math.round(seconds) < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 24 * 60) {
    const [h, m] = [Math.floor(minutes / 60), minutes % 60];
    return m ? `${h} h ${String(m).padStart(2, '0')} min` : `${h} h`;
  }
  const hours = Math.round(seconds / 3600);
  const [d, h] = [Math.floor(hours / 24), hours % 24];
  return h ? `${d} j ${h} h` : `${d} j`;
}

const arrowKey = (from: string, to: string, event: string, guard: string | null) => `${from}\u0000${to}\u0000${event}\u0000${guard ?? ''}`;

/** The notes of the chart: each state's count now, each arrow's count over the period with its median, the entries. */
export function chartFigures(figures: FiguresData): ChartFigures {
  const arrows = new Map(
    figures.transitions.map((x) => [
      arrowKey(x.from, x.to, x.event, x.guard),
      x.count === null ? t.unrecorded : [t.arrowCount(x.count, figures.days), ...(x.medianSeconds === null ? [] : [t.arrowMedian(frenchDuration(x.medianSeconds))])].join(', '),
    ]),
  );
  return {
    states: Object.fromEntries(figures.states.map((s) => [s.state, s.measure === 'period' ? t.statePeriod(s.count, figures.days) : t.stateNow(s.count)])),
    arrow: (from, to, event, guard) => arrows.get(arrowKey(from, to, event, guard)) ?? null,
    start: t.arrowCount(figures.started, figures.days),
  };
}

export interface FiguresStateRow {
  id: string;
  label: string;
  count: number;
  /** Counted over the period (its items no longer exist), not now. */
  overPeriod: boolean;
}

export interface FiguresTransitionRow {
  key: string;
  /** 'En attente → Approuvée', or the entries' row. */
  label: string;
  event: string | null;
  guard: string | null;
  /** Null: not recorded. */
  count: number | null;
  median: string;
}

export interface FiguresTables {
  days: number;
  /** The labels of the states counted over the period, for the caption. */
  periodStates: string[];
  states: FiguresStateRow[];
  transitions: FiguresTransitionRow[];
}

/** The table beside the chart: the same numbers, French labels from the catalog, the code's identifiers. */
export function figuresTables(entry: WorkflowEntry, figures: FiguresData): FiguresTables {
  const label = (state: string) => entry.states[state] ?? state;
  return {
    days: figures.days,
    periodStates: figures.states.filter((s) => s.measure === 'period').map((s) => label(s.state)),
    states: figures.states.map((s) => ({ id: s.state, label: label(s.state), count: s.count, overPeriod: s.measure === 'period' })),
    transitions: [
      { key: 'start', label: t.start, event: null, guard: null, count: figures.started, median: t.none },
      ...figures.transitions.map((x) => ({
        key: arrowKey(x.from, x.to, x.event, x.guard),
        label: `${label(x.from)} → ${label(x.to)}`,
        event: x.event,
        guard: x.guard,
        count: x.count,
        median: x.medianSeconds === null ? t.none : frenchDuration(x.medianSeconds),
      })),
    ],
  };
}
