// The requests the caller made ('Mes demandes', issue 22): their list and their cancellation. Apart from
// invitations.ts, which the /admin route's loader brings into the first screen's JavaScript.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { unwrap, type ApiClient } from './client';
import { invitationsKeys, type Invitation, type InvitationList } from './invitations';
import type { operations } from './schema.gen';

export type MyInvitationsQuery = NonNullable<operations['listMyInvitations']['parameters']['query']>;

/** GET /api/v2/invitations/mine: the requests the caller made ('Mes demandes'). */
export function fetchMyInvitations(api: ApiClient, query: MyInvitationsQuery): Promise<InvitationList> {
  return unwrap(api.GET('/api/v2/invitations/mine', { params: { query } }), 'Failed to fetch invitations');
}

export function myInvitationsQueryOptions(api: ApiClient, query: MyInvitationsQuery) {
  return queryOptions({ queryKey: [...invitationsKeys.all, 'mine', query] as const, queryFn: () => fetchMyInvitations(api, query), placeholderData: keepPreviousData });
}

/** POST /api/v2/invitations/{id}/cancel: the reason is optional. */
export function cancelInvitation(api: ApiClient, id: number, reason: string | null): Promise<Invitation> {
  return unwrap(api.POST('/api/v2/invitations/{id}/cancel', { params: { path: { id } }, body: reason ? { reason } : {} }), 'Failed to cancel invitation');
}
