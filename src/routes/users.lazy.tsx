import { lazy, Suspense, useEffect, useState } from 'react';
import { createLazyRoute, useRouter, useRouterState } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Guarded } from '../features/session/guarded';
import type { ActivationRequest } from '../features/users/users-activation';
import { useDocumentTitle } from '../lib/use-document-title';
import { useUsersOrganizationFilters } from '../features/users/use-users-organization-filters';
import { useUserRows } from '../features/users/use-user-rows';
import { useBulkSelection } from '../features/users/use-bulk-selection';
import { usersQueryOptions } from '../api/users';
import { rolesQueryOptions } from '../api/roles';
import { useSession } from '../session';
import type { SessionProfile } from '../machines/session/session.machine';
import { hasPermission, isBackOffice } from '../../rules/permissions';
import { roleDisplayLabel } from '../../rules/roles';
import { compactPageItems, pageRange } from '../domain/pagination';
import { UsersList } from '../ui/users/users-list';
import { UsersFilters } from '../ui/users/users-filters';
import { UsersTable, type UserRow } from '../ui/users/users-table';
import { useToast } from '../ui/toaster';
import { frLists as fr } from '../i18n/fr-lists';
import { usersListQuery } from '../lib/list-queries';
import type { UsersSearch } from './users';
import { ACCOUNT_STATES } from '../domain/account-state';

/** Spec §9: toasts of about 3.3 s on the users screens; the name or email search waits 500 ms. */
const TOAST_MS = 3300;
const SEARCH_DEBOUNCE_MS = 500;
const t = fr.usersList;
// The confirmations of a deactivation, reactivation or deletion load after the list (its 60 kB budget), preloaded on mount.
const loadActivationFlow = () => import('../features/users/users-activation');
const ActivationFlow = lazy(loadActivationFlow);
// The CSV export's button draws after the list; its machine loads on the first press (issue 21).
const UsersCsvExport = lazy(() => import('../features/csv-export/users-csv-export'));

function UsersScreen({ actor }: { actor: SessionProfile }) {
  const router = useRouter();
  const { api, queryClient } = Route.useRouteContext();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const toast = useToast();
  // A message passed on by the screen that sent the person here (the creation wizard, the administrator requests).
  const passedToast = useRouterState({ select: (s) => s.location.state.toast });
  useEffect(() => {
    if (passedToast) toast({ ...passedToast, durationMs: TOAST_MS });
  }, [passedToast, toast]);
  useEffect(() => void loadActivationFlow(), []);
  const [request, setRequest] = useState<ActivationRequest | null>(null);
  const backOffice = isBackOffice(actor);
  const update = (changes: Partial<UsersSearch>) => void navigate({ search: (prev) => ({ ...prev, ...changes }) });
  const orgs = useUsersOrganizationFilters({ api, siren: search.siren, siret: search.siret, onChange: (changes) => update({ ...changes, page: 1 }) });
  const roles = useQuery(rolesQueryOptions(api));
  // Started by the route's loader already, with the screen's code; the export and a selection of every result take
  // the same filters, the account's state included, all pages.
  const { page: _page, pageSize: _pageSize, ...filters } = usersListQuery(search);
  const { sort: _sort, order: _order, ...bulkFilters } = filters;
  const users = useQuery(usersQueryOptions(api, usersListQuery(search)));
  const bulk = useBulkSelection({ api, queryClient, actor, filters: bulkFilters, list: users.data });
  const chosenSiren = orgs.chosenSiren ?? (!backOffice && orgs.unsearchedSirens.length === 1 ? orgs.unsearchedSirens[0] : undefined);
  const title = !backOffice && chosenSiren ? t.titleFor(chosenSiren.name) : t.title;
  useDocumentTitle(title);

  const rows = useUserRows(actor, users.data?.items, roles.data);
  const data = users.data;
  const range = data ? pageRange(data.page, data.pageSize, data.total) : null;
  const ask = (action: ActivationRequest['action'], row: UserRow) =>
    setRequest({ action, target: { id: row.id, name: row.name, isActive: row.isActive }, allowed: { deactivate: row.allowed.changeActivation, reactivate: row.allowed.changeActivation, delete: row.allowed.deletePermanently, resendInvitation: row.allowed.resendInvitation } });
  const showSirenFilter = backOffice || (hasPermission(actor, 'USER_LIST') && orgs.unsearchedSirens.length > 0);

  return (
    <>
      <UsersList
        title={title}
        canAdd={hasPermission(actor, 'USER_CREATE')}
        canRequestAdmin={!backOffice && hasPermission(actor, 'USER_CREATE')}
        onAdd={() => void router.navigate({ to: '/utilisateurs/creer' })}
        onRequestAdmin={() => void router.navigate({ to: '/admin-actions' })}
        actions={
          <Suspense fallback={null}>
            <UsersCsvExport api={api} filters={filters} />
          </Suspense>
        }
        filters={
          <UsersFilters
            sirens={showSirenFilter ? orgs.sirenFilter : null}
            sirets={orgs.siretFilter}
            roles={{ options: (roles.data ?? []).map((r) => ({ value: r.code, label: roleDisplayLabel(r.name) })), value: search.role ?? '', onChange: (v) => update({ role: v || undefined, page: 1 }) }}
            accountStates={{
              options: ACCOUNT_STATES.map((state) => ({ value: state, label: t.accountStates[state] })),
              value: search.accountState ?? '',
              onChange: (v) => update({ accountState: ACCOUNT_STATES.find((state) => state === v), page: 1 }),
            }}
            search={{ value: search.search, delayMs: SEARCH_DEBOUNCE_MS, onSearch: (text) => update({ search: text, page: 1 }) }}
          />
        }
        toolbar={
          bulk?.active && (
            <bulk.Panel
              bulk={bulk}
              exportControl={
                <Suspense fallback={null}>
                  <UsersCsvExport api={api} filters={filters} selection={{ userIds: bulk.selectedIds }} />
                </Suspense>
              }
            />
          )
        }
        loading={users.isPending}
        empty={rows.length === 0}
        table={
          <UsersTable
            rows={rows}
            updating={users.isPlaceholderData}
            sort={search.sort}
            order={search.order}
            onSort={(sort, order) => update({ sort, order, page: 1 })}
            onEdit={(row) => void router.navigate({ to: '/utilisateurs/edit/$userId', params: { userId: row.id } })}
            onView={(row) => void router.navigate({ to: '/utilisateurs/$id', params: { id: row.id } })}
            onDeactivate={(row) => ask('deactivate', row)}
            onReactivate={(row) => ask('reactivate', row)}
            onDelete={(row) => ask('delete', row)}
            onResendInvitation={(row) => ask('resendInvitation', row)}
            selection={bulk?.table ?? null}
          />
        }
        summary={users.isPending ? '' : range && data ? t.range(range.from, range.to, data.total) : t.none}
        pageSize={search.pageSize}
        onPageSize={(pageSize) => update({ pageSize, page: 1 })}
        pagination={{ page: search.page, totalPages: data?.totalPages ?? 0, items: compactPageItems(search.page, data?.totalPages ?? 0), onPage: (page) => update({ page }) }}
      />
      {request && (
        <Suspense fallback={null}>
          <ActivationFlow
            key={`${request.action}-${request.target.id}`}
            api={api}
            queryClient={queryClient}
            request={request}
            onOutcome={(outcome) => toast({ ...outcome, durationMs: TOAST_MS })}
            onClose={() => setRequest(null)}
          />
        </Suspense>
      )}
    </>
  );
}

function UsersPage() {
  const actor = useSession((s) => s.context.profile);
  return actor ? <UsersScreen actor={actor} /> : null;
}

// Spec §2: any signed-in person reaches the page (the menu entry needs USER_LIST); without it the list stays empty (§8).
export const Route = createLazyRoute('/shell/utilisateurs')({
  component: () => (
    <Guarded firstScreen>
      <UsersPage />
    </Guarded>
  ),
});
