import type { ReactNode } from 'react';
import { frWorkflows } from '../../i18n/fr-workflows';
import { WorkflowSection, type ChartView, type WorkflowView } from './workflow-section';

const t = frWorkflows;

/** /workflows: every machine of the portal, its chart, its tables and its model-based test numbers. */
export function WorkflowsPage({
  workflows,
  charts,
  onDownload,
  figures = {},
}: {
  workflows: WorkflowView[];
  charts: Record<string, ChartView>;
  onDownload: (id: string) => void;
  /** Issue 24: the figures beside the charts of the machines the server drives, by machine id. */
  figures?: Readonly<Record<string, ReactNode>>;
}) {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">{t.title}</h1>
        <p className="mt-1 max-w-3xl text-slate-700">{t.intro}</p>
      </div>
      <nav aria-label={t.listLabel}>
        <ul className="flex flex-wrap gap-2">
          {workflows.map((workflow) => (
            <li key={workflow.id}>
              <a href={`#workflow-${workflow.id}`} className="inline-block rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-800 hover:bg-brand-100">
                {workflow.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {workflows.map((workflow) => (
        <WorkflowSection key={workflow.id} workflow={workflow} chart={charts[workflow.id] ?? { status: 'loading' }} onDownload={() => onDownload(workflow.id)} figures={figures[workflow.id]} />
      ))}
    </div>
  );
}
