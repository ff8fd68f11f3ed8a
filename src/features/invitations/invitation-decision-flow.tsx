import { useEffect, useMemo, useRef } from 'react';
import { useMachine } from '@xstate/react';
import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import type { Invitation } from '../../api/invitations';
import { invitationDecisionMachine, type Decision, type DecisionFailure } from '../../machines/invitation-decision/invitation-decision.machine';
import { invitationDecisionActors } from '../../machines/invitation-decision/invitation-decision.actors';
import { rejectionReasonSchema } from '../../../rules/validation';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { RejectReasonField } from '../../ui/invitations/reject-reason-field';
import type { ToastMessage } from '../../ui/toaster';
import { fr } from '../../i18n/fr';

const t = fr.invitations;

/** The texts of a decision's outcome, as each screen says them (spec §4, §8). */
export function decisionOutcome(mode: 'list' | 'detail', decision: Decision, invitation: Invitation, reason: string, failure: DecisionFailure | null): Omit<ToastMessage, 'durationMs'> {
  const email = invitation.inviteeEmail;
  if (failure) {
    // A refused approval (409) says why in the server's words: already decided, the 5-role limit, or the account of
    // the address changed since the request (the back office checks the person before approving again).
    const why = decision === 'approve' && failure.status === 409 && failure.message ? { description: failure.message } : {};
    if (mode === 'detail') return { variant: 'error', title: decision === 'approve' ? t.detail.approveFailed : t.detail.rejectFailed, ...why };
    if (decision === 'approve') {
      const message = failure.status > 0 ? t.list.approvalFailedMessage(failure.status, failure.statusText) : t.list.unknownError;
      return { variant: 'error', title: t.list.approveFailed(email, message), ...why };
    }
    const message = failure.reasonError ? t.list.validationError(failure.reasonError) : (failure.message ?? t.list.unknownError);
    return { variant: 'error', title: t.list.rejectFailed(email, message) };
  }
  const roleAssignment = invitation.invitationType === 'ROLE_ASSIGNMENT';
  if (mode === 'detail') {
    const title = decision === 'reject' ? t.detail.rejected(email) : roleAssignment ? t.detail.roleAssigned(email) : t.detail.approved(email);
    return { id: `decision-${invitation.id}`, variant: 'success', title };
  }
  if (decision === 'reject') return { id: `decision-${invitation.id}`, variant: 'success', title: t.list.rejected(email, reason) };
  return { id: `decision-${invitation.id}`, variant: 'success', title: t.approvedUser, description: roleAssignment ? t.list.roleAssigned(email) : t.list.adminApproved(email) };
}

export interface DecisionFlowProps {
  api: ApiClient;
  queryClient: QueryClient;
  invitation: Invitation;
  /** The action the person chose: the flow opens its confirmation at once. */
  intent: Decision | null;
  onOutcome: (outcome: Omit<ToastMessage, 'durationMs'>, succeeded: boolean) => void;
  /** The confirmation was cancelled, or the decision has settled. */
  onClose: () => void;
  mode: 'list' | 'detail';
  onProcessingChange?: (processing: boolean) => void;
  onFinished?: () => void;
}

/** The invitation-decision machine with its dialogs, for one invitation, on either screen. */
export function DecisionFlow({ api, queryClient, invitation, intent, mode, onOutcome, onClose, onProcessingChange, onFinished }: DecisionFlowProps) {
  const machine = useMemo(() => invitationDecisionMachine.provide(invitationDecisionActors(api, queryClient)), [api, queryClient]);
  const [snapshot, send] = useMachine(machine, { input: { invitation } });
  const state = String(snapshot.value);
  const { reason, decision } = snapshot.context;

  useEffect(() => send({ type: 'invitation.updated', invitation }), [invitation, send]);
  useEffect(() => {
    if (intent) send({ type: intent === 'approve' ? 'invitation.approve' : 'invitation.reject' });
  }, [intent, send]);
  useEffect(() => onProcessingChange?.(state === 'processing'), [state, onProcessingChange]);
  // The outcome of a state, announced once when the machine enters it, with the props of that moment.
  const latest = useRef({ mode, invitation, onOutcome, onClose, onFinished });
  latest.current = { mode, invitation, onOutcome, onClose, onFinished };
  const handled = useRef<string | null>(null);
  useEffect(() => {
    if (handled.current === state) return;
    handled.current = state;
    const { mode: m, invitation: inv, onOutcome: report, onClose: close, onFinished: finish } = latest.current;
    const { decision: d, reason: r, failure: f } = snapshot.context;
    if (state === 'succeeded') report(decisionOutcome(m, d ?? 'approve', inv, r.trim(), null), true);
    if (state === 'failed') {
      report(decisionOutcome(m, d ?? 'approve', inv, r.trim(), f), false);
      send({ type: 'decision.dismiss' });
      close();
    }
    if (state === 'finished') finish?.();
  }, [state, send, snapshot.context]);

  const reasonCheck = rejectionReasonSchema.safeParse(reason);
  const cancel = () => {
    send({ type: 'decision.cancel' });
    onClose();
  };
  return (
    <>
      <ConfirmDialog
        open={state === 'confirmingApproval' || (state === 'processing' && decision === 'approve' && mode === 'list')}
        title={t.approve}
        description={t.confirmApprove}
        busy={state === 'processing'}
        onConfirm={() => send({ type: 'decision.confirm' })}
        onCancel={cancel}
      />
      <ConfirmDialog
        open={state === 'confirmingRejection' || (state === 'processing' && decision === 'reject' && mode === 'list')}
        title={t.reject}
        description={t.confirmReject(invitation.inviteeEmail)}
        confirmDisabled={!reasonCheck.success}
        busy={state === 'processing'}
        onConfirm={() => send({ type: 'decision.confirm' })}
        onCancel={cancel}
      >
        <RejectReasonField value={reason} error={reasonCheck.success ? null : (reasonCheck.error.issues[0]?.message ?? null)} onChange={(value) => send({ type: 'reason.change', value })} />
      </ConfirmDialog>
    </>
  );
}
