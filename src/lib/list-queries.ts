// What a list screen asks the API for, from its URL: shared by the screen and its route's loader (issue 18), so
// that both name one query and the screen finds the answer the loader started.
import { statusQuery, type InvitationStatusFilter, type WaitingFilter } from '../domain/invitation-status';
import type { AccountState } from '../domain/account-state';

/** /utilisateurs: the users list's request (listUsers' query). */
export function usersListQuery(search: { siren?: string; siret?: string; role?: string; accountState?: AccountState; search: string; sort: 'name' | 'email' | 'lastLogin'; order: 'asc' | 'desc'; page: number; pageSize: number }) {
  return {
    organizationId: search.siret ?? search.siren,
    roleCode: search.role,
    search: search.search.trim() || undefined,
    includeInactive: true,
    accountState: search.accountState,
    sort: search.sort,
    order: search.order,
    page: search.page,
    pageSize: search.pageSize,
  };
}

/** /admin: the requests list's request (listInvitations' query); 'all' asks for every status. */
export function invitationsListQuery(search: { status: InvitationStatusFilter; waiting?: WaitingFilter; search: string; sort: 'id' | 'email' | 'createdAt'; order: 'asc' | 'desc'; page: number; pageSize: number }) {
  return {
    status: statusQuery(search.status),
    waiting: search.waiting,
    search: search.search.trim() || undefined,
    sort: search.sort,
    order: search.order,
    page: search.page,
    pageSize: search.pageSize,
  };
}
