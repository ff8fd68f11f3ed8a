import { useEffect, useMemo, useRef } from 'react';
import { useMachine } from '@xstate/react';
import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { userActivationMachine, type ActivationAction, type ActivationFailure, type ActivationTarget } from '../../machines/user-activation/user-activation.machine';
import { userActivationActors } from '../../machines/user-activation/user-activation.actors';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import type { ToastMessage } from '../../ui/toaster';
import { fr } from '../../i18n/fr';
import { frBulk } from '../../i18n/fr-bulk';

const t = fr.usersList;
const resend = frBulk.resend;

/** The texts of an activation's outcome (spec §8). */
export function activationOutcome(action: ActivationAction, name: string, failure: ActivationFailure | null): Omit<ToastMessage, 'durationMs'> {
  if (!failure) {
    const title = action === 'deactivate' ? t.deactivated(name) : action === 'reactivate' ? t.activated(name) : action === 'resendInvitation' ? resend.sent(name) : t.deleted(name);
    return { variant: 'success', title };
  }
  // The server's reason (already signed in, deactivated meanwhile…), else the plain failure.
  if (action === 'resendInvitation') return { variant: 'error', title: failure.status === 0 ? t.serverError : (failure.message ?? resend.failed) };
  if (action === 'delete') return { variant: 'error', title: t.deleteFailed(failure.message ?? (failure.status === 0 ? t.serverError : String(failure.status))) };
  if (failure.status === 0) return { variant: 'error', title: t.serverError };
  return { variant: 'error', title: action === 'deactivate' ? t.deactivateFailed : t.reactivateFailed };
}

const EVENTS = { deactivate: 'user.deactivate', reactivate: 'user.reactivate', delete: 'user.delete', resendInvitation: 'user.resendInvitation' } as const;

export type ActivationRequest = { action: ActivationAction; target: ActivationTarget; allowed: Record<ActivationAction, boolean> };

/** The user-activation machine with its confirmation, for one request made from a row. */
export function ActivationFlow({ api, queryClient, request, onOutcome, onClose }: { api: ApiClient; queryClient: QueryClient; request: ActivationRequest; onOutcome: (outcome: Omit<ToastMessage, 'durationMs'>) => void; onClose: () => void }) {
  const machine = useMemo(() => userActivationMachine.provide(userActivationActors(api, queryClient)), [api, queryClient]);
  const [snapshot, send, actor] = useMachine(machine);
  const state = String(snapshot.value);
  const latest = useRef({ onOutcome, onClose });
  latest.current = { onOutcome, onClose };
  useEffect(() => {
    send({ type: EVENTS[request.action], target: request.target, allowed: request.allowed });
    // A refused request (not allowed, or not fitting the user's state) opens nothing.
    if (actor.getSnapshot().matches('idle')) latest.current.onClose();
  }, [request, send, actor]);
  useEffect(() => {
    if (state !== 'succeeded' && state !== 'failed') return;
    const { action, target, failure } = snapshot.context;
    latest.current.onOutcome(activationOutcome(action!, target!.name, state === 'failed' ? failure : null));
    send({ type: 'activation.dismiss' });
    latest.current.onClose();
  }, [state, snapshot.context, send]);
  const { action, target } = snapshot.context;
  const open = (state === 'confirming' || state === 'processing') && target !== null;
  const description = !target
    ? ''
    : action === 'deactivate'
      ? t.confirmDeactivate(target.name)
      : action === 'reactivate'
        ? t.confirmReactivate(target.name)
        : action === 'resendInvitation'
          ? resend.confirm(target.name)
          : t.confirmDelete(target.name);
  const title = action === 'deactivate' ? t.deactivate : action === 'reactivate' ? t.activate : action === 'resendInvitation' ? t.resendInvitation : t.deletePermanently;
  return (
    <ConfirmDialog
      open={open}
      title={title}
      description={description}
      busy={state === 'processing'}
      onConfirm={() => send({ type: 'activation.confirm' })}
      onCancel={() => {
        send({ type: 'activation.cancel' });
        onClose();
      }}
    />
  );
}

// The list loads it with React.lazy, which takes a default export (fewer bytes in the list's 60 kB budget than a mapping).
export default ActivationFlow;
