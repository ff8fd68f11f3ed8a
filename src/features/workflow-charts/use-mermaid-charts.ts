import { useEffect, useState } from 'react';
import type { ChartView } from '../../ui/workflows/workflow-section';

/**
 * Draws Mermaid charts as SVG, one after the other. Mermaid is imported here, dynamically: it is loaded
 * with the /workflows screen only, never with the rest of the portal.
 */
export function useMermaidCharts(charts: readonly { id: string; text: string }[]): Record<string, ChartView> {
  const [views, setViews] = useState<Record<string, ChartView>>({});
  useEffect(() => {
    let cancelled = false;
    const show = (id: string, view: ChartView) => !cancelled && setViews((previous) => ({ ...previous, [id]: view }));
    void (async () => {
      let mermaid: (typeof import('mermaid'))['default'];
      try {
        mermaid = (await import('mermaid')).default;
        // 'strict': labels are sanitized and no script or click handler ends up in the SVG. ELK (loaded on
        // demand by Mermaid, ~470 kB gzipped) draws the arrows into and out of nested states; dagre mangles them.
        mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'neutral', layout: 'elk' });
      } catch (error) {
        for (const chart of charts) show(chart.id, { status: 'failed', message: (error as Error).message });
        return;
      }
      for (const chart of charts) {
        if (cancelled) return;
        try {
          const { svg } = await mermaid.render(`workflow-chart-${chart.id}`, chart.text);
          show(chart.id, { status: 'ready', svg });
        } catch (error) {
          show(chart.id, { status: 'failed', message: (error as Error).message });
        }
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [charts]);
  return views;
}

/** Saves an SVG text as `<name>.svg` through the browser's download. */
export function downloadSvg(name: string, svg: string): void {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${name}.svg`;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the link; the object URL can go a little later.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
