import { useEffect, useId, useMemo, useRef } from 'react';
import { useMachine } from '@xstate/react';
import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { requestCancellationMachine, type CancellableRequest } from '../../machines/request-cancellation/request-cancellation.machine';
import { requestCancellationActors } from '../../machines/request-cancellation/request-cancellation.actors';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import type { ToastMessage } from '../../ui/toaster';
import { fr } from '../../i18n/fr';

const t = fr.myRequests;

/** 'Annuler' on 'Mes demandes': the request-cancellation machine with its confirmation and optional reason. */
export function RequestCancellationFlow({
  api,
  queryClient,
  request,
  onOutcome,
  onClose,
}: {
  api: ApiClient;
  queryClient: QueryClient;
  request: CancellableRequest;
  onOutcome: (outcome: Omit<ToastMessage, 'durationMs'>) => void;
  onClose: () => void;
}) {
  const machine = useMemo(() => requestCancellationMachine.provide(requestCancellationActors(api, queryClient)), [api, queryClient]);
  const [snapshot, send, actor] = useMachine(machine);
  const state = String(snapshot.value);
  const latest = useRef({ onOutcome, onClose });
  latest.current = { onOutcome, onClose };
  const fieldId = useId();

  useEffect(() => {
    send({ type: 'request.cancel', request });
    // A request the server would not let the caller cancel opens nothing.
    if (actor.getSnapshot().matches('idle')) latest.current.onClose();
  }, [request, send, actor]);

  useEffect(() => {
    if (state !== 'done' && state !== 'failed') return;
    const { failure } = snapshot.context;
    latest.current.onOutcome(
      state === 'done'
        ? { variant: 'success', title: t.cancelled(request.inviteeEmail) }
        : { variant: 'error', title: failure?.status === 0 || !failure?.message ? t.serverError : t.cancelFailed(failure.message) },
    );
    send({ type: 'cancellation.dismiss' });
    latest.current.onClose();
  }, [state, snapshot.context, send, request.inviteeEmail]);

  const { reason, reasonError } = snapshot.context;
  return (
    <ConfirmDialog
      open={state === 'askingReason' || state === 'cancelling'}
      title={t.confirmTitle}
      description={t.confirmText(request.inviteeEmail)}
      confirmLabel={t.confirm}
      cancelLabel={t.keep}
      confirmDisabled={reasonError !== null}
      busy={state === 'cancelling'}
      onConfirm={() => send({ type: 'cancellation.confirm' })}
      onCancel={() => {
        send({ type: 'cancellation.abort' });
        onClose();
      }}
    >
      <div className="mt-4">
        <label htmlFor={fieldId} className="block text-sm font-semibold text-slate-800">
          {t.reasonLabel}
        </label>
        <textarea
          id={fieldId}
          value={reason}
          rows={3}
          placeholder={t.reasonPlaceholder}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={`${fieldId}-error`}
          onChange={(e) => send({ type: 'reason.change', value: e.target.value })}
          className="mt-1 w-full rounded-lg border border-slate-400 p-2 focus:border-brand-600"
        />
        <p id={`${fieldId}-error`} aria-live="polite" className="mt-1 min-h-5 text-sm text-red-700">
          {reasonError}
        </p>
      </div>
    </ConfirmDialog>
  );
}
