import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describeWorkflows } from '../../src/workflows/workflow-views';
import { workflowCatalog } from '../../src/workflows/catalog';
import { machineToMermaid } from '../../src/workflows/mermaid-chart';
import { downloadSvg, useMermaidCharts } from '../../src/features/workflow-charts/use-mermaid-charts';
import { WorkflowsPage } from '../../src/ui/workflows/workflows-page';

// jsdom cannot lay out an SVG, so Mermaid itself is replaced: these tests are about what the screen does with it.
const mermaid = vi.hoisted(() => ({
  initialize: vi.fn(),
  render: vi.fn(async (id: string, text: string) => {
    if (text.includes('broken')) throw new Error('Parse error on line 2');
    return { svg: `<svg id="${id}" xmlns="http://www.w3.org/2000/svg"><text>${text.split('\n')[1]}</text></svg>` };
  }),
}));
vi.mock('mermaid', () => ({ default: mermaid }));

afterEach(cleanup);

const workflows = describeWorkflows();
const charts = workflows.map((w) => ({ id: w.id, text: w.chart }));

function Screen({ items = workflows, texts = charts, onDownload = () => {} }: { items?: typeof workflows; texts?: typeof charts; onDownload?: (id: string) => void }) {
  return <WorkflowsPage workflows={items} charts={useMermaidCharts(texts)} onDownload={onDownload} />;
}

describe('/workflows', () => {
  it('shows every machine of the catalog with its chart drawn by Mermaid from the machine, in strict mode', async () => {
    render(<Screen />);
    screen.getByRole('heading', { level: 1, name: 'Workflows' });
    const nav = screen.getByRole('navigation', { name: 'Machines' });
    expect(within(nav).getAllByRole('link')).toHaveLength(workflowCatalog.length);
    for (const entry of workflowCatalog) {
      const section = screen.getByRole('region', { name: entry.title });
      await waitFor(() => expect(within(section).getByRole('img', { name: `Diagramme d'états : ${entry.title}` }).querySelector('svg')).not.toBeNull());
      expect(mermaid.render).toHaveBeenCalledWith(`workflow-chart-${entry.machine.id}`, machineToMermaid(entry.machine));
    }
    expect(mermaid.initialize).toHaveBeenCalledWith(expect.objectContaining({ securityLevel: 'strict', startOnLoad: false }));
  });

  it('shows the states and events tables with French labels and identifiers, the screens and the model-based test numbers', () => {
    render(<Screen />);
    const session = screen.getByRole('region', { name: 'Session et connexion' });
    const states = within(session).getByRole('table', { name: 'États : Session et connexion' });
    const row = within(states).getByRole('row', { name: /Chargement du profil loadingProfile/ });
    expect(row.textContent).toContain('Charger le profil (GET /api/v2/users/me) loadProfile');
    const events = within(session).getByRole('table', { name: 'Événements : Session et connexion' });
    expect(within(events).getByRole('row', { name: /Recharger le profil session\.reloadProfile/ }).textContent).toContain('signedIn → loadingProfile');
    within(session).getByText('/test-v2-api');
    const measured = workflows.find((w) => w.id === 'session')!.coverage!;
    within(session).getByText(new RegExp(`^${measured.paths} chemins générés ; états atteints ${measured.states.reached}/${measured.states.total}`));
  });

  it("says when a machine has no model-based test, and when its chart could not be drawn, without downloading it", async () => {
    const onDownload = vi.fn();
    const broken = { ...workflows[0]!, id: 'broken', title: 'Machine cassée', coverage: null, chart: 'stateDiagram-v2\n  broken' };
    render(<Screen items={[broken]} texts={[{ id: 'broken', text: broken.chart }]} onDownload={onDownload} />);
    const section = screen.getByRole('region', { name: 'Machine cassée' });
    within(section).getByText('Aucun test de modèle');
    expect((await within(section).findByRole('alert')).textContent).toBe("Le diagramme n'a pas pu être dessiné : Parse error on line 2");
    expect((within(section).getByRole('button', { name: 'Télécharger le SVG : Machine cassée' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("offers 'Télécharger le SVG' once the chart is drawn", async () => {
    const onDownload = vi.fn();
    render(<Screen onDownload={onDownload} />);
    const button = screen.getByRole('button', { name: 'Télécharger le SVG : Garde des routes' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(button);
    expect(onDownload).toHaveBeenCalledWith('guard');
  });

  it('downloads the SVG text as <machine id>.svg', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => (created.push(blob), 'blob:https://portal.test/1'));
    URL.revokeObjectURL = vi.fn();
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    downloadSvg('guard', '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    click.mockRestore();
    expect(clicked.map((a) => [a.download, a.href])).toEqual([['guard.svg', 'blob:https://portal.test/1']]);
    expect(created[0]!.type).toBe('image/svg+xml');
    expect(await created[0]!.text()).toBe('<svg xmlns="http://www.w3.org/2000/svg"></svg>');
  });
});
