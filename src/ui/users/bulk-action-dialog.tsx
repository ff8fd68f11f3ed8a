import { useEffect, useRef } from 'react';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import type { BulkActionName } from '../../domain/user-actions';
import { frBulk as t } from '../../i18n/fr-bulk';
import { focusTrail, restoreFocus } from '../focus-return';

export type BulkDialogPhase = 'confirming' | 'starting' | 'running' | 'report' | 'failed' | 'interrupted';

export interface BulkDialogJob {
  total: number;
  processed: number;
  succeeded: number;
  refusals: { userId: string; name: string; email: string; reason: string }[];
}

export interface BulkActionDialogProps {
  phase: BulkDialogPhase;
  action: BulkActionName;
  count: number;
  job: BulkDialogJob | null;
  failure: { status: number; message: string | null } | null;
  onConfirm: () => void;
  onCancel: () => void;
  onDismiss: () => void;
  onRetry: () => void;
}

const secondary = 'rounded-lg border border-slate-300 px-4 py-2 font-medium text-slate-700 hover:bg-slate-50';
const primary = 'rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700';

function Progress({ job }: { job: BulkDialogJob | null }) {
  const total = job?.total ?? 0;
  const done = job?.processed ?? 0;
  const percent = total === 0 ? 0 : Math.round((done / total) * 100);
  return (
    <div className="mt-4 space-y-2">
      <div role="progressbar" aria-label={t.progressLabel} aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-valuetext={job ? t.progress(done, total) : t.starting} className="h-3 w-full overflow-hidden rounded-full bg-slate-200">
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-slate-700">{job ? t.progress(done, total) : t.starting}</p>
    </div>
  );
}

/** The server answers the first 100 refusals (REFUSALS_SHOWN); the others are counted from the totals. */
function Report({ job }: { job: BulkDialogJob }) {
  const shown = job.refusals;
  const refused = Math.max(job.processed - job.succeeded, shown.length);
  return (
    <div className="mt-3 space-y-3">
      <p className="font-semibold text-slate-900">{t.succeeded(job.succeeded, job.total)}</p>
      {refused === 0 ? (
        <p className="text-slate-700">{t.noRefusal}</p>
      ) : (
        <section aria-label={t.refusals(refused)}>
          <h3 className="font-semibold text-red-800">{t.refusals(refused)}</h3>
          {/* Scrolls within the dialog on a phone; reachable by keyboard. */}
          <ul tabIndex={0} aria-label={t.refusals(refused)} className="mt-2 max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200">
            {shown.map((refusal) => (
              <li key={refusal.userId} className="px-3 py-2 text-sm">
                <p className="font-medium text-slate-900">{refusal.name || t.outOfReach}</p>
                {refusal.email && <p className="break-all text-slate-600">{refusal.email}</p>}
                <p className="text-red-800">{refusal.reason}</p>
              </li>
            ))}
          </ul>
          {refused > shown.length && <p className="mt-2 text-sm text-slate-700">{t.moreRefusals(refused - shown.length)}</p>}
        </section>
      )}
    </div>
  );
}

/**
 * The confirmation of an action on the selection, then its progress and its report, in one alert dialog (Radix):
 * the focus stays inside from the confirmation to the report, Escape cancels a confirmation or closes a report
 * but never a job under way, and the focus goes back near the toolbar's button once it closes.
 */
export function BulkActionDialog({ phase, action, count, job, failure, onConfirm, onCancel, onDismiss, onRetry }: BulkActionDialogProps) {
  const trigger = useRef<Element[]>([]);
  const content = useRef<HTMLDivElement>(null);
  const busy = phase === 'starting' || phase === 'running';
  // The buttons change with the phase: the focus goes to the new main one, or to the dialog while it works.
  useEffect(() => {
    if (phase === 'confirming') return;
    const target = content.current?.querySelector<HTMLElement>('[data-main]') ?? content.current;
    target?.focus();
  }, [phase]);
  const title = phase === 'report' ? t.reportTitle[action] : phase === 'failed' ? t.failedTitle : phase === 'interrupted' ? t.interruptedTitle : t.confirmTitle[action](count);
  const description =
    phase === 'confirming' ? t.confirmText[action](count) : phase === 'failed' ? (failure?.message ?? (failure?.status === 0 ? t.network : t.failed)) : phase === 'interrupted' ? t.interrupted : busy ? t.running : '';
  return (
    <AlertDialog.Root open onOpenChange={(next) => !next && (phase === 'confirming' ? onCancel() : !busy && onDismiss())}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <AlertDialog.Content
          ref={content}
          tabIndex={-1}
          aria-busy={busy || undefined}
          onOpenAutoFocus={() => {
            trigger.current = focusTrail(document.activeElement);
          }}
          onEscapeKeyDown={(event) => busy && event.preventDefault()}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            restoreFocus(trigger.current);
          }}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100vh-2rem)] w-[min(36rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl outline-none">
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">{title}</AlertDialog.Title>
          <AlertDialog.Description className={description ? 'mt-2 text-slate-700' : 'sr-only'}>{description || title}</AlertDialog.Description>
          {busy && <Progress job={phase === 'running' ? job : null} />}
          {phase === 'report' && job && <Report job={job} />}
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            {phase === 'confirming' && (
              <>
                <AlertDialog.Cancel className={secondary}>{t.cancel}</AlertDialog.Cancel>
                <button type="button" onClick={onConfirm} className={action === 'delete' ? 'rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800' : primary}>
                  {t.confirm}
                </button>
              </>
            )}
            {phase === 'interrupted' && (
              <button type="button" data-main onClick={onRetry} className={primary}>
                {t.retry}
              </button>
            )}
            {(phase === 'report' || phase === 'failed' || phase === 'interrupted') && (
              <button type="button" data-main={phase === 'interrupted' ? undefined : true} onClick={onDismiss} className={phase === 'interrupted' ? secondary : primary}>
                {t.close}
              </button>
            )}
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
