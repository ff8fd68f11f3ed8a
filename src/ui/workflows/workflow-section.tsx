import type { ReactNode } from 'react';
import { frWorkflows } from '../../i18n/fr-workflows';
import { WorkflowTables, type WorkflowTablesView } from './workflow-tables';

const t = frWorkflows;

export interface WorkflowView {
  id: string;
  title: string;
  description: string;
  screens: { path: string; name: string }[];
  coverage: { paths: number; states: { reached: number; total: number }; transitions: { taken: number; total: number } } | null;
  tables: WorkflowTablesView;
}

/** The chart of one machine as Mermaid drew it (lazily: loading first), or why it could not be drawn. */
export type ChartView = { status: 'loading' } | { status: 'ready'; svg: string } | { status: 'failed'; message: string };

/** `figures`: for a machine the server drives (issue 24), its figures beside the chart (which carries them too). */
export function WorkflowSection({ workflow, chart, onDownload, figures }: { workflow: WorkflowView; chart: ChartView; onDownload: () => void; figures?: ReactNode }) {
  const { id, title, coverage } = workflow;
  const headingId = `workflow-${id}-title`;
  return (
    <section id={`workflow-${id}`} aria-labelledby={headingId} className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={headingId} className="text-xl font-semibold text-slate-900">
            {title}
          </h2>
          <p className="mt-1 max-w-3xl text-slate-700">{workflow.description}</p>
        </div>
        <button
          type="button"
          onClick={onDownload}
          disabled={chart.status !== 'ready'}
          aria-label={t.downloadOf(title)}
          className="rounded-lg border border-brand-600 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50 disabled:cursor-not-allowed disabled:opacity-60"
        >
          {t.download}
        </button>
      </div>
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-600">{t.machineId}</dt>
        <dd>
          <code className="font-mono">{id}</code>
        </dd>
        <dt className="font-medium text-slate-600">{t.screens}</dt>
        <dd>
          {workflow.screens.map((screen) => (
            <span key={screen.path} className="mr-3 inline-block">
              <code className="font-mono">{screen.path}</code> ({screen.name})
            </span>
          ))}
        </dd>
        <dt className="font-medium text-slate-600">{t.tests}</dt>
        <dd>{coverage ? t.coverage(coverage.paths, t.ratio(coverage.states.reached, coverage.states.total), t.ratio(coverage.transitions.taken, coverage.transitions.total)) : t.noModel}</dd>
      </dl>
      <div className={figures ? 'grid grid-cols-1 items-start gap-4 xl:grid-cols-2' : undefined}>
        <figure className="overflow-x-auto rounded-lg border border-slate-100 bg-slate-50 p-3">
          {chart.status === 'ready' && <div role="img" aria-label={t.chartLabel(title)} className="[&_svg]:mx-auto" dangerouslySetInnerHTML={{ __html: chart.svg }} />}
          {chart.status === 'loading' && <p className="text-slate-600">{t.chartLoading}</p>}
          {chart.status === 'failed' && <p role="alert" className="text-red-800">{t.chartFailed(chart.message)}</p>}
        </figure>
        {figures}
      </div>
      <WorkflowTables title={title} tables={workflow.tables} />
    </section>
  );
}
