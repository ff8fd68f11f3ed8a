import { useState } from 'react';
import { createLazyRoute, Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Guarded, USER_CREATE_REQUIRED } from '../features/session/guarded';
import { RequestCancellationFlow } from '../features/invitations/request-cancellation-flow';
import { useDocumentTitle } from '../lib/use-document-title';
import { myInvitationsQueryOptions } from '../api/my-invitations';
import { statusQuery } from '../domain/invitation-status';
import { pageItems, pageRange } from '../domain/pagination';
import { formatDate, formatDateTime } from '../domain/dates';
import type { CancellableRequest } from '../machines/request-cancellation/request-cancellation.machine';
import { MyRequestsList } from '../ui/invitations/my-requests-list';
import { useToast } from '../ui/toaster';
import { fr } from '../i18n/fr';
import type { MyRequestsSearch } from './my-requests';

const TOAST_MS = 4000;

function MyRequests() {
  const { api, queryClient } = Route.useRouteContext();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const toast = useToast();
  const [cancelling, setCancelling] = useState<CancellableRequest | null>(null);
  useDocumentTitle(fr.myRequests.documentTitle);
  const query = useQuery(myInvitationsQueryOptions(api, { status: statusQuery(search.status), page: search.page, pageSize: search.pageSize }));
  const update = (changes: Partial<MyRequestsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...changes }) });
  const data = query.data;
  const range = data ? pageRange(data.page, data.pageSize, data.totalCount) : null;
  const totalPages = data?.totalPages ?? 0;
  const rows = (data?.items ?? []).map((item) => ({ ...item, canCancel: item.allowedActions.includes('cancel') }));

  return (
    <>
      <MyRequestsList
        status={search.status}
        pageSize={search.pageSize}
        rows={rows}
        loading={query.isPending}
        updating={query.isPlaceholderData}
        summary={query.isPending ? '' : range && data ? fr.myRequests.range(range.from, range.to, data.totalCount) : fr.myRequests.noResult}
        pagination={{ page: search.page, totalPages, items: pageItems(search.page, totalPages) }}
        formatDate={(iso) => formatDateTime(iso) ?? '—'}
        formatDay={(iso) => formatDate(iso) ?? '—'}
        onStatus={(status) => update({ status, page: 1 })}
        onPage={(page) => update({ page })}
        onPageSize={(pageSize) => update({ pageSize, page: 1 })}
        onCancel={(row) => setCancelling({ id: row.id, inviteeEmail: row.inviteeEmail, canCancel: row.canCancel })}
        back={
          <Link to="/admin-actions" className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
            <span aria-hidden="true">←</span> {fr.myRequests.back}
          </Link>
        }
      />
      {cancelling && (
        <RequestCancellationFlow
          key={cancelling.id}
          api={api}
          queryClient={queryClient}
          request={cancelling}
          onOutcome={(outcome) => toast({ ...outcome, durationMs: TOAST_MS })}
          onClose={() => setCancelling(null)}
        />
      )}
    </>
  );
}

export const Route = createLazyRoute('/shell/admin-actions/demandes')({
  component: () => (
    <Guarded requirement={USER_CREATE_REQUIRED}>
      <MyRequests />
    </Guarded>
  ),
});
