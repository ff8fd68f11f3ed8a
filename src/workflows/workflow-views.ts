import { workflowCatalog, workflowId } from './catalog';
import type { WorkflowCoverage, WorkflowEntry, WorkflowScreen } from './catalog-types';
import { machineToMermaid } from './mermaid-chart';
import { workflowTables, type WorkflowTables } from './machine-outline';
import { modelCoverage } from './model-coverage';

/** What the /workflows screen shows of one machine. */
export interface WorkflowDescription {
  id: string;
  title: string;
  description: string;
  screens: WorkflowScreen[];
  coverage: WorkflowCoverage | null;
  tables: WorkflowTables;
  /** The Mermaid text of its chart, drawn from the machine itself. */
  chart: string;
}

export function describeWorkflows(
  entries: readonly WorkflowEntry[] = workflowCatalog,
  coverage: Readonly<Partial<Record<string, WorkflowCoverage>>> = modelCoverage,
): WorkflowDescription[] {
  return entries.map((entry) => ({
    id: workflowId(entry),
    title: entry.title,
    description: entry.description,
    screens: entry.screens,
    coverage: coverage[workflowId(entry)] ?? null,
    tables: workflowTables(entry),
    chart: machineToMermaid(entry.machine),
  }));
}
