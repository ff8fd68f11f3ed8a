import { createLazyRoute } from '@tanstack/react-router';
import { BACK_OFFICE_ONLY, Guarded } from '../features/session/guarded';
import { downloadSvg, useMermaidCharts } from '../features/workflow-charts/use-mermaid-charts';
import { useDocumentTitle } from '../lib/use-document-title';
import { describeWorkflows } from '../workflows/workflow-views';
import { WorkflowsPage } from '../ui/workflows/workflows-page';
import { frWorkflows } from '../i18n/fr-workflows';

// Drawn from the machines this build contains: the charts always match the code.
const WORKFLOWS = describeWorkflows();
const CHARTS = WORKFLOWS.map((workflow) => ({ id: workflow.id, text: workflow.chart }));

function Workflows() {
  useDocumentTitle(frWorkflows.title);
  const charts = useMermaidCharts(CHARTS);
  const download = (id: string) => {
    const chart = charts[id];
    if (chart?.status === 'ready') downloadSvg(id, chart.svg);
  };
  return <WorkflowsPage workflows={WORKFLOWS} charts={charts} onDownload={download} />;
}


export const Route = createLazyRoute('/shell/workflows')({
  component: () => (
    <Guarded requirement={BACK_OFFICE_ONLY}>
      <Workflows />
    </Guarded>
  ),
});
