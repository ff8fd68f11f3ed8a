import { lazy, Suspense, useEffect, useState } from 'react';
import { createLazyRoute, useRouter, useRouterState } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { BACK_OFFICE_ONLY, Guarded } from '../features/session/guarded';
import { useDocumentTitle } from '../lib/use-document-title';
import { invitationsQueryOptions, type Invitation } from '../api/invitations';
import type { Decision } from '../machines/invitation-decision/invitation-decision.machine';
import { pageItems, pageRange } from '../domain/pagination';
import { invitationsListQuery } from '../lib/list-queries';
import type { AdminSearch } from './admin';
import { formatDateTime } from '../domain/dates';
import { InvitationsList } from '../ui/invitations/invitations-list';
import { useSession } from '../session';
import { hasPermission } from '../../rules/permissions';
import { useToast } from '../ui/toaster';
import { fr } from '../i18n/fr';

// The decision's dialog, its machine and the reason's checks load when a decision is first asked for, not with the list.
const DecisionFlow = lazy(() => import('../features/invitations/invitation-decision-flow').then((m) => ({ default: m.DecisionFlow })));

/** Spec §2: 500 ms search debounce, toasts of 4 s. */
export const ADMIN_SEARCH_DEBOUNCE_MS = 500;
export const ADMIN_TOAST_MS = 4000;


function AdminInvitations() {
  const router = useRouter();
  const { api, queryClient } = Route.useRouteContext();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const toast = useToast();
  const passedToast = useRouterState({ select: (s) => s.location.state.toast });
  // As the users list's 'Ajouter': not offered to whom /admin-actions would refuse (the permissions are the server's, from /users/me).
  const canCreate = useSession((s) => (s.context.profile ? hasPermission(s.context.profile, 'USER_CREATE') : false));
  const [action, setAction] = useState<{ invitation: Invitation; intent: Decision } | null>(null);
  const query = useQuery(invitationsQueryOptions(api, invitationsListQuery(search)));
  useDocumentTitle(fr.invitations.documentTitle);

  useEffect(() => {
    if (passedToast) toast({ ...passedToast, durationMs: ADMIN_TOAST_MS });
  }, [passedToast, toast]);

  const update = (changes: Partial<AdminSearch>) => void navigate({ search: (prev) => ({ ...prev, ...changes }) });
  const data = query.data;
  const rows = data?.items ?? [];
  const range = data ? pageRange(data.page, data.pageSize, data.totalCount) : null;
  const totalPages = data?.totalPages ?? 0;
  const open = (invitation: Invitation | undefined, intent: Decision) => invitation && setAction({ invitation, intent });
  const byId = (id: number) => rows.find((r) => r.id === id);

  return (
    <>
      <InvitationsList
        search={search}
        rows={rows}
        loading={query.isPending}
        updating={query.isPlaceholderData}
        summary={query.isPending ? '' : range && data ? fr.invitations.range(range.from, range.to, data.totalCount) : fr.invitations.noResult}
        pagination={{ page: search.page, totalPages, items: pageItems(search.page, totalPages) }}
        searchDebounceMs={ADMIN_SEARCH_DEBOUNCE_MS}
        formatDate={(iso) => formatDateTime(iso) ?? '—'}
        onStatus={(status) => update({ status, waiting: undefined, page: 1 })}
        waiting={search.waiting ? { notice: fr.invitations.waiting[search.waiting], onClear: () => update({ waiting: undefined, page: 1 }) } : null}
        onSearch={(text) => update({ search: text, page: 1 })}
        onSort={(sort, order) => update({ sort, order, page: 1 })}
        onPage={(page) => update({ page })}
        onPageSize={(pageSize) => update({ pageSize, page: 1 })}
        canCreate={canCreate}
        onCreate={() => void router.navigate({ to: '/admin-actions' })}
        onApprove={(row) => open(byId(row.id), 'approve')}
        onReject={(row) => open(byId(row.id), 'reject')}
        onView={(row) => void navigate({ to: '/admin/$id', params: { id: String(row.id) } })}
      />
      {action && (
        <Suspense fallback={null}>
        <DecisionFlow
          key={`${action.invitation.id}-${action.intent}`}
          api={api}
          queryClient={queryClient}
          invitation={byId(action.invitation.id) ?? action.invitation}
          intent={action.intent}
          mode="list"
          onOutcome={(outcome) => {
            toast({ ...outcome, durationMs: ADMIN_TOAST_MS });
            setAction(null);
          }}
          onClose={() => setAction(null)}
        />
        </Suspense>
      )}
    </>
  );
}

export const Route = createLazyRoute('/shell/admin')({
  component: () => (
    <Guarded requirement={BACK_OFFICE_ONLY} firstScreen>
      <AdminInvitations />
    </Guarded>
  ),
});
