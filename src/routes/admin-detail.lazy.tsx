import { useCallback, useState } from 'react';
import { createLazyRoute, Link, useRouter } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { BACK_OFFICE_ONLY, Guarded } from '../features/session/guarded';
import { DecisionFlow } from '../features/invitations/invitation-decision-flow';
import { useDocumentTitle } from '../lib/use-document-title';
import { invitationQueryOptions } from '../api/invitations';
import type { Decision } from '../machines/invitation-decision/invitation-decision.machine';
import { formatDateTime } from '../domain/dates';
import { InvitationDetail } from '../ui/invitations/invitation-detail';
import { ProcessingOverlay } from '../ui/processing-overlay';
import { Spinner } from '../ui/spinner';
import { ReasonHintButton } from '../ui/reason-hint-button';
import { useToast, type ToastMessage } from '../ui/toaster';
import { fr } from '../i18n/fr';

const t = fr.invitations.detail;
const TOAST_MS = 4000;

const decisionButton = 'rounded-lg px-4 py-2 font-semibold text-white aria-disabled:cursor-not-allowed aria-disabled:opacity-50';

function InvitationScreen() {
  const router = useRouter();
  const { api, queryClient } = Route.useRouteContext();
  const { id } = Route.useParams();
  const invitationId = Number(id);
  const valid = Number.isSafeInteger(invitationId) && invitationId > 0;
  const query = useQuery({ ...invitationQueryOptions(api, invitationId), enabled: valid });
  const toast = useToast();
  const [intent, setIntent] = useState<Decision | null>(null);
  const [processing, setProcessing] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [passOn, setPassOn] = useState<Omit<ToastMessage, 'durationMs'> | null>(null);
  useDocumentTitle(t.documentTitle);
  const onProcessingChange = useCallback((value: boolean) => setProcessing(value), []);

  if (valid && query.isPending) return <Spinner label={t.loading} />;
  const invitation = query.data;
  if (!valid || !invitation) {
    return (
      <div className="space-y-3">
        <h1 className="text-2xl font-bold text-slate-900">{t.notFoundTitle}</h1>
        <p className="text-slate-700">{t.notFoundText}</p>
        <Link to="/admin" className="text-brand-700 underline">
          {t.back}
        </Link>
      </div>
    );
  }
  const pending = invitation.status === 'PENDING';
  return (
    <div className="max-w-4xl space-y-5">
      <Link to="/admin" className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
        <span aria-hidden="true">←</span> {t.back}
      </Link>
      <h1 className="text-2xl font-bold text-slate-900">{t.heading(invitation.id)}</h1>
      {alert && (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-900">
          {alert}
        </p>
      )}
      <InvitationDetail invitation={invitation} formatDate={(iso) => formatDateTime(iso) ?? '—'} />
      {pending && (
        <div className="flex gap-3">
          {/* The server says whether the caller may decide (allowedActions); the read-only back office sees why not. */}
          <ReasonHintButton
            reason={invitation.allowedActions.includes('approve') ? null : fr.invitations.noRightApprove}
            onClick={() => (setAlert(null), setIntent('approve'))}
            className={`${decisionButton} bg-green-700 hover:bg-green-800`}
          >
            {fr.invitations.approve}
          </ReasonHintButton>
          <ReasonHintButton
            reason={invitation.allowedActions.includes('reject') ? null : fr.invitations.noRightReject}
            onClick={() => (setAlert(null), setIntent('reject'))}
            className={`${decisionButton} bg-red-700 hover:bg-red-800`}
          >
            {fr.invitations.reject}
          </ReasonHintButton>
        </div>
      )}
      <DecisionFlow
        api={api}
        queryClient={queryClient}
        invitation={invitation}
        intent={intent}
        mode="detail"
        onProcessingChange={onProcessingChange}
        onOutcome={(outcome, succeeded) => {
          if (succeeded) {
            toast({ ...outcome, durationMs: TOAST_MS });
            setPassOn(outcome);
          } else setAlert(outcome.description ? `${outcome.title} ${outcome.description}` : outcome.title);
        }}
        onClose={() => setIntent(null)}
        onFinished={() => void router.navigate({ to: '/admin', state: passOn ? { toast: passOn } : undefined })}
      />
      {processing && <ProcessingOverlay label={t.processing} />}
    </div>
  );
}

export const Route = createLazyRoute('/shell/admin/$id')({
  component: () => (
    <Guarded requirement={BACK_OFFICE_ONLY}>
      <InvitationScreen />
    </Guarded>
  ),
});
