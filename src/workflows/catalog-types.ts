import type { AnyStateMachine } from 'xstate';

/** A screen a machine drives: its route and its French name. */
export interface WorkflowScreen {
  path: string;
  name: string;
}

/**
 * What analysts read about one machine of src/machines or rules/, next to the chart drawn from the machine itself.
 * The id is the machine's (= its file name). Labels are French, keyed by the code's identifiers: states
 * by path ('editing.details'), events by type, invoked actors by src. The coverage gate fails while a
 * label is missing or names something the machine no longer has.
 */
export interface WorkflowEntry {
  machine: AnyStateMachine;
  title: string;
  description: string;
  screens: WorkflowScreen[];
  states: Record<string, string>;
  events: Record<string, string>;
  actors: Record<string, string>;
  /**
   * A lifecycle machine the server drives and counts (issue 24): /workflows draws its figures on its chart, from
   * GET /api/v2/workflows/{id}/figures (the server's figures source of the same id).
   */
  serverFigures?: boolean;
  /** What its figures count, where the data says less than the machine (shown under the figures' tables, a paragraph each). */
  figuresNote?: readonly string[];
}

/** The model-based test numbers of one machine, as `npm run charts` measured them. */
export interface WorkflowCoverage {
  paths: number;
  states: { reached: number; total: number };
  transitions: { taken: number; total: number };
}
