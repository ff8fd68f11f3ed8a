import { lazy, Suspense, useMemo, useState } from 'react';
import { createLazyRoute, Link } from '@tanstack/react-router';
import { useQueries, useQuery } from '@tanstack/react-query';
import { isUuid } from '../lib/search-params';
import { useDocumentTitle } from '../lib/use-document-title';
import { ApiFailure } from '../api/client';
import { organizationByCodeQueryOptions, userQueryOptions } from '../api/user-details';
import { groupBySiren } from '../domain/user-profile';
import { Spinner } from '../ui/spinner';
import { UserNotFound, UserProfile } from '../ui/users/user-profile';
import { UserHistory } from '../features/journal/user-history';
import type { ActivationRequest } from '../features/users/users-activation';
import { useToast } from '../ui/toaster';
import { fr } from '../i18n/fr';

const t = fr.userProfile;
// Issue 22: a new set-up link, confirmed as on the list (the user-activation machine), loaded on the first press.
const ActivationFlow = lazy(() => import('../features/users/users-activation'));
// Issue 23: a person's data on request, for whom the server allows it (allowedActions: exportPersonalData).
const PersonalDataFlow = lazy(() => import('../features/personal-data/personal-data-flow'));
const TOAST_MS = 3300;
const isUserId = (id: string) => isUuid(id);

function ProfileScreen() {
  const { api, queryClient } = Route.useRouteContext();
  const toast = useToast();
  const [request, setRequest] = useState<ActivationRequest | null>(null);
  const { id } = Route.useParams();
  const valid = isUserId(id);
  const query = useQuery({ ...userQueryOptions(api, id), enabled: valid });
  const grouped = useMemo(() => groupBySiren(query.data?.organizations ?? []), [query.data]);
  // A user holding only SIRETs of a SIREN: its name is looked up (else 'SIREN {code}').
  const lookups = useQueries({ queries: grouped.filter((s) => !s.name).map((s) => organizationByCodeQueryOptions(api, s.code)) });
  const names = new Map(lookups.flatMap((l) => (l.data ? [[l.data.code, l.data.name] as const] : [])));
  const sirens = grouped.map((s) => (s.name ? s : { ...s, name: names.get(s.code) ?? '' }));
  useDocumentTitle(t.documentTitle);

  const back = (
    <Link to="/utilisateurs" className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
      <span aria-hidden="true">←</span> {t.back}
    </Link>
  );
  if (valid && query.isPending) return <Spinner label={t.loading} />;
  const detail = query.data;
  if (!valid || !detail) {
    const status = query.error instanceof ApiFailure ? query.error.status : 404;
    return <UserNotFound detail={status === 404 || status === 403 ? null : query.error?.message}>{back}</UserNotFound>;
  }
  // Whether the caller may edit is the server's word (allowedActions).
  const editable = detail.allowedActions.includes('edit');
  const resendable = detail.allowedActions.includes('resendInvitation');
  const exportable = detail.allowedActions.includes('exportPersonalData');
  const name = `${detail.user.firstName} ${detail.user.lastName}`.trim();
  return (
    <div className="space-y-5">
      {back}
      <UserProfile
        user={detail.user}
        sirens={sirens}
        actions={
          <div className="flex flex-wrap gap-2">
            {resendable && (
              <button type="button" onClick={() =>
                  setRequest({ action: 'resendInvitation', target: { id: detail.user.id, name, isActive: detail.user.isActive }, allowed: { deactivate: false, reactivate: false, delete: false, resendInvitation: true } })
                } className="rounded-lg border border-brand-600 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50">
                {fr.usersList.resendInvitation}
              </button>
            )}
            {editable && (
              <Link to="/utilisateurs/edit/$userId" params={{ userId: detail.user.id }} className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
                {t.edit}
              </Link>
            )}
          </div>
        }
      />
      {request && (
        <Suspense fallback={null}>
          <ActivationFlow api={api} queryClient={queryClient} request={request} onOutcome={(outcome) => toast({ ...outcome, durationMs: TOAST_MS })} onClose={() => setRequest(null)} />
        </Suspense>
      )}
      {exportable && (
        // As wide as the profile's cards above it.
        <div className="max-w-4xl">
          <Suspense fallback={null}>
            <PersonalDataFlow api={api} userId={detail.user.id} self={false} tone="light" />
          </Suspense>
        </div>
      )}
      {/* The person's entries of the journal (issue 21), as far as the caller's scope reaches. */}
      <UserHistory api={api} userId={detail.user.id} />
    </div>
  );
}

export const Route = createLazyRoute('/shell/utilisateurs/$id')({ component: ProfileScreen });
