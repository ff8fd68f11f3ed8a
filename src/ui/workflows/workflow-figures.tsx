import type { ReactNode } from 'react';
import { frWorkflows } from '../../i18n/fr-workflows';

const t = frWorkflows.figures;
// Narrower cells on a phone: the transitions' three columns (the event and guard under the transition's name) fit 375 px.
const th = 'px-2 py-2 font-medium sm:px-3';
const td = 'px-2 py-2 align-top sm:px-3';
const num = 'px-2 py-2 text-right tabular-nums sm:px-3';
/** An event or guard name breaks anywhere rather than widen the table past the screen. */
const code = 'font-mono text-xs [overflow-wrap:anywhere]';

export interface FiguresTablesView {
  days: number;
  /** The states counted over the period (their items no longer exist), named in the caption. */
  periodStates: string[];
  states: { id: string; label: string; count: number; overPeriod: boolean }[];
  /** `count` null: the portal keeps no record of the move. */
  transitions: { key: string; label: string; event: string | null; guard: string | null; count: number | null; median: string }[];
}

export type FiguresView = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; tables: FiguresTablesView };

export interface WorkflowFiguresProps {
  workflowId: string;
  title: string;
  days: number;
  periods: readonly number[];
  onPeriodChange: (days: number) => void;
  figures: FiguresView;
  /** The figures' CSV download (a flow the screen gives). */
  exportControl: ReactNode;
  /** What the figures of this machine count, where it needs saying (the catalog's): a paragraph each. */
  note?: readonly string[];
}

/** Beside a server machine's chart: the period, the same figures as the chart in two tables, and their CSV download. */
export function WorkflowFigures({ workflowId, title, days, periods, onPeriodChange, figures, exportControl, note }: WorkflowFiguresProps) {
  const selectId = `workflow-${workflowId}-period`;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={selectId} className="block text-sm font-medium text-slate-700">
            {t.period}
          </label>
          <select
            id={selectId}
            value={days}
            onChange={(event) => onPeriodChange(Number(event.target.value))}
            className="mt-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900"
          >
            {periods.map((period) => (
              <option key={period} value={period}>
                {t.periodOption(period)}
              </option>
            ))}
          </select>
        </div>
        {exportControl}
      </div>
      {figures.status === 'loading' && <p className="text-slate-600">{t.loading}</p>}
      {figures.status === 'failed' && (
        <p role="alert" className="text-red-800">
          {t.failed(figures.message)}
        </p>
      )}
      {figures.status === 'ready' && (
        <div className="space-y-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="pb-2 text-left font-semibold text-slate-900">{figures.tables.periodStates.length ? t.statesPeriodCaption(title, figures.tables.periodStates.join(', '), figures.tables.days) : t.statesCaption(title)}</caption>
            <thead className="bg-slate-50 text-slate-600">
              <tr>
                <th scope="col" className={th}>{t.columns.state}</th>
                <th scope="col" className={`${th} text-right`}>{t.columns.count}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {figures.tables.states.map((state) => (
                <tr key={state.id}>
                  <th scope="row" className={`${td} font-normal`}>
                    {state.label} <code className="font-mono text-xs text-slate-600">{state.id}</code>
                  </th>
                  <td className={num}>{state.count.toLocaleString('fr-FR')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table className="w-full text-left text-sm" aria-describedby={`${selectId}-median`}>
            <caption className="pb-2 text-left font-semibold text-slate-900">{t.transitionsCaption(title, figures.tables.days)}</caption>
            <thead className="bg-slate-50 text-slate-600">
              <tr>
                <th scope="col" className={th}>{t.columns.transitionEvent}</th>
                <th scope="col" className={`${th} text-right`}>{t.columns.count}</th>
                <th scope="col" className={`${th} text-right`}>{t.columns.median}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {figures.tables.transitions.map((row) => (
                <tr key={row.key}>
                  <th scope="row" className={`${td} font-normal`}>
                    {row.label}
                    {row.event && <code className={`block text-slate-700 ${code}`}>{row.event}</code>}
                    {row.guard && <code className={`block text-slate-600 ${code}`}>[{row.guard}]</code>}
                  </th>
                  <td className={num}>{row.count === null ? t.unrecorded : row.count.toLocaleString('fr-FR')}</td>
                  <td className={num}>{row.median}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div id={`${selectId}-median`} className="space-y-1 text-xs text-slate-600">
            <p>{t.medianNote}</p>
            {figures.tables.transitions.some((row) => row.count === null) && <p>{t.unrecordedNote}</p>}
            {note?.map((paragraph) => <p key={paragraph}>{paragraph}</p>)}
          </div>
        </div>
      )}
    </div>
  );
}
