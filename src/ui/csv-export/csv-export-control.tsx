import { useEffect, useRef } from 'react';
import { frExports as t } from '../../i18n/fr-exports';

export type CsvExportPhase = 'idle' | 'downloading' | 'saving' | 'done' | 'failed' | 'cancelled';

export interface CsvExportControlProps {
  phase: CsvExportPhase;
  /** Data rows received so far, or in the file saved. */
  rows: number;
  /** Why the export failed: the server's French message, null for none (the network: status 0). */
  failure: { status: number; message: string | null } | null;
  onStart: () => void;
  onCancel: () => void;
  /** Takes the focus when drawn (it replaces the button just pressed). */
  focusOnMount?: boolean;
  /** The selection's export rather than the filtered list's (issue 22). */
  selection?: boolean;
  /** The button's text and title when the file is not a list's (issue 24: a chart's figures). */
  labels?: CsvExportLabels;
}

export interface CsvExportLabels {
  button: string;
  description: string;
}

function statusText({ phase, rows, failure }: Pick<CsvExportControlProps, 'phase' | 'rows' | 'failure'>): string {
  if (phase === 'downloading') return t.inProgress(rows);
  if (phase === 'saving') return t.saving(rows);
  if (phase === 'done') return t.done(rows);
  if (phase === 'cancelled') return t.cancelled;
  if (phase === 'failed') return failure?.message ? t.failedBecause(failure.message) : failure?.status === 0 ? t.network : t.failed;
  return '';
}

/** The export's button, its progress (rows received) and a way to cancel it. */
export function CsvExportControl(props: CsvExportControlProps) {
  const button = useRef<HTMLButtonElement>(null);
  const busy = props.phase === 'downloading' || props.phase === 'saving';
  useEffect(() => {
    if (props.focusOnMount) button.current?.focus();
  }, [props.focusOnMount]);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <button
        ref={button}
        type="button"
        title={props.labels?.description ?? (props.selection ? t.exportSelectionDescription : t.exportDescription)}
        // Not disabled while busy: the focus stays on it (a second press is ignored).
        aria-disabled={busy}
        onClick={() => !busy && props.onStart()}
        // In the selection's toolbar, the size of its other actions.
        className={`rounded-lg border border-slate-300 bg-white font-semibold text-slate-800 hover:bg-slate-50 aria-disabled:cursor-progress aria-disabled:opacity-70 ${props.selection ? 'px-3 py-2 text-sm' : 'px-4 py-2'}`}
      >
        {props.labels?.button ?? (props.selection ? t.exportSelection : t.exportCsv)}
      </button>
      {busy && (
        <button
          type="button"
          onClick={() => {
            props.onCancel();
            button.current?.focus();
          }}
          className="rounded-lg border border-red-300 bg-white px-3 py-2 text-sm font-semibold text-red-700 hover:bg-red-50"
        >
          {t.cancel}
        </button>
      )}
      <p role="status" className={`text-sm ${props.phase === 'failed' ? 'font-semibold text-red-700' : 'text-slate-700'}`}>
        {statusText(props)}
      </p>
    </div>
  );
}
