import { lazy, Suspense, useMemo } from 'react';
import { createLazyRoute } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { workflowFiguresQueryOptions, type FiguredWorkflowId } from '../api/workflow-figures';
import { BACK_OFFICE_ONLY, Guarded } from '../features/session/guarded';
import { downloadSvg, useMermaidCharts } from '../features/workflow-charts/use-mermaid-charts';
import { useDocumentTitle } from '../lib/use-document-title';
import { workflowCatalog, workflowId } from '../workflows/catalog';
import { chartFigures, figuresTables } from '../workflows/figures-annotation';
import { machineToMermaid } from '../workflows/mermaid-chart';
import { describeWorkflows } from '../workflows/workflow-views';
import { WorkflowFigures, type FiguresView } from '../ui/workflows/workflow-figures';
import { WorkflowsPage } from '../ui/workflows/workflows-page';
import { frWorkflows } from '../i18n/fr-workflows';
import { FIGURES_PERIODS, type FiguresPeriod } from '../domain/figures-periods';

// The figures' CSV button loads after the page, as the lists' exports.
const FiguresCsvExport = lazy(() => import('../features/csv-export/workflow-figures-csv-export'));

// Drawn from the machines this build contains: the charts always match the code.
const WORKFLOWS = describeWorkflows();
// The machines the server drives and counts (issue 24): their charts carry the figures of the period in the URL.
const FIGURED = workflowCatalog.filter((entry) => entry.serverFigures);
const FIGURED_IDS = new Set(FIGURED.map(workflowId));
const FIGURED_API_IDS = FIGURED.map((entry) => workflowId(entry) as FiguredWorkflowId);
const STATIC_CHARTS = WORKFLOWS.filter((workflow) => !FIGURED_IDS.has(workflow.id)).map((workflow) => ({ id: workflow.id, text: workflow.chart }));
const SEPARATOR = '\u0001';
const t = frWorkflows.figures;

function Workflows() {
  const { api } = Route.useRouteContext();
  const { days } = Route.useSearch();
  const navigate = Route.useNavigate();
  useDocumentTitle(frWorkflows.title);
  const figures = useQuery(workflowFiguresQueryOptions(api, FIGURED_API_IDS, days));
  // The charts of the figured machines are drawn again only when their text changes (new figures).
  const dataOf = (i: number) => {
    const item = figures.data?.[i];
    return item instanceof Error ? undefined : item;
  };
  const texts = FIGURED.map((entry, i) => machineToMermaid(entry.machine, dataOf(i) ? chartFigures(dataOf(i)!) : undefined)).join(SEPARATOR);
  const figuredCharts = useMemo(() => texts.split(SEPARATOR).map((text, i) => ({ id: workflowId(FIGURED[i]!), text })), [texts]);
  const charts = { ...useMermaidCharts(STATIC_CHARTS), ...useMermaidCharts(figuredCharts) };
  const download = (id: string) => {
    const chart = charts[id];
    if (chart?.status === 'ready') downloadSvg(FIGURED_IDS.has(id) ? `${id}-${days}j` : id, chart.svg);
  };
  const panels = Object.fromEntries(
    FIGURED.map((entry, i) => {
      const id = workflowId(entry);
      const data = dataOf(i);
      const item = figures.data?.[i];
      const failure = item instanceof Error ? item : figures.error;
      const view: FiguresView = data
        ? { status: 'ready', tables: figuresTables(entry, data) }
        : failure
          ? { status: 'failed', message: failure.message }
          : { status: 'loading' };
      const exportControl = (
        <Suspense fallback={null}>
          <FiguresCsvExport api={api} query={{ workflowId: id as FiguredWorkflowId, days }} labels={{ button: t.exportCsv, description: t.exportDescription(entry.title, days) }} />
        </Suspense>
      );
      return [
        id,
        <WorkflowFigures
          key={id}
          workflowId={id}
          title={entry.title}
          days={days}
          periods={FIGURES_PERIODS}
          onPeriodChange={(next) => void navigate({ search: { days: next as FiguresPeriod }, replace: true, hash: `workflow-${id}` })}
          figures={view}
          exportControl={exportControl}
          note={entry.figuresNote}
        />,
      ];
    }),
  );
  return <WorkflowsPage workflows={WORKFLOWS} charts={charts} onDownload={download} figures={panels} />;
}

export const Route = createLazyRoute('/shell/workflows')({
  component: () => (
    <Guarded requirement={BACK_OFFICE_ONLY}>
      <Workflows />
    </Guarded>
  ),
});
