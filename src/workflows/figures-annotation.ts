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
  states: readonly { state: string; count: number }[];
  transitions: readonly { from: string; to: string; event: string; count: number; medianSeconds: number | null }[];
}

/** What the chart carries besides the machine: a note per state, a text added to arrows, a label on the start's arrow. */
export interface ChartFigures {
  states: Readonly<Record<string, string>>;
  arrow: (from: string, to: string, eventType: string) => string | null;
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

const arrowKey = (from: string, to: string, event: string) => `${from}\u0000${to}\u0000${event}`;

/** The notes of the chart: each state's count now, each arrow's count over the period with its median, the entries. */
export function chartFigures(figures: FiguresData): ChartFigures {
  const arrows = new Map(
    figures.transitions.map((x) => [
      arrowKey(x.from, x.to, x.event),
      [t.arrowCount(x.count, figures.days), ...(x.medianSeconds === null ? [] : [t.arrowMedian(frenchDuration(x.medianSeconds))])].join(', '),
    ]),
  );
  return {
    states: Object.fromEntries(figures.states.map((s) => [s.state, t.stateNow(s.count)])),
    arrow: (from, to, event) => arrows.get(arrowKey(from, to, event)) ?? null,
    start: t.arrowCount(figures.started, figures.days),
  };
}

export interface FiguresStateRow {
  id: string;
  label: string;
  count: number;
}

export interface FiguresTransitionRow {
  key: string;
  /** 'En attente → Approuvée', or the entries' row. */
  label: string;
  event: string | null;
  count: number;
  median: string;
}

export interface FiguresTables {
  days: number;
  states: FiguresStateRow[];
  transitions: FiguresTransitionRow[];
}

/** The table beside the chart: the same numbers, French labels from the catalog, the code's identifiers. */
export function figuresTables(entry: WorkflowEntry, figures: FiguresData): FiguresTables {
  const label = (state: string) => entry.states[state] ?? state;
  return {
    days: figures.days,
    states: figures.states.map((s) => ({ id: s.state, label: label(s.state), count: s.count })),
    transitions: [
      { key: 'start', label: t.start, event: null, count: figures.started, median: t.none },
      ...figures.transitions.map((x) => ({
        key: arrowKey(x.from, x.to, x.event),
        label: `${label(x.from)} → ${label(x.to)}`,
        event: x.event,
        count: x.count,
        median: x.medianSeconds === null ? t.none : frenchDuration(x.medianSeconds),
      })),
    ],
  };
}
