import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { unwrap, type ApiClient } from './client';
import type { components, operations } from './schema.gen';

export type Invitation = components['schemas']['Invitation'];
export type InvitationList = components['schemas']['InvitationList'];
export type InvitationListQuery = NonNullable<operations['listInvitations']['parameters']['query']>;

export const invitationsKeys = {
  all: ['invitations'] as const,
  lists: () => [...invitationsKeys.all, 'list'] as const,
  list: (query: InvitationListQuery) => [...invitationsKeys.lists(), query] as const,
  detail: (id: number) => [...invitationsKeys.all, 'detail', id] as const,
};

/** GET /api/v2/invitations */
export function fetchInvitations(api: ApiClient, query: InvitationListQuery): Promise<InvitationList> {
  return unwrap(api.GET('/api/v2/invitations', { params: { query } }), 'Failed to fetch invitations');
}

export function invitationsQueryOptions(api: ApiClient, query: InvitationListQuery) {
  // The previous page stays on screen while the next one loads.
  return queryOptions({ queryKey: invitationsKeys.list(query), queryFn: () => fetchInvitations(api, query), placeholderData: keepPreviousData });
}

/** GET /api/v2/invitations/{id} */
export function fetchInvitation(api: ApiClient, id: number): Promise<Invitation> {
  return unwrap(api.GET('/api/v2/invitations/{id}', { params: { path: { id } } }), 'Failed to fetch invitations');
}

export function invitationQueryOptions(api: ApiClient, id: number) {
  return queryOptions({ queryKey: invitationsKeys.detail(id), queryFn: () => fetchInvitation(api, id) });
}

/** POST /api/v2/invitations/{id}/approve */
export function approveInvitation(api: ApiClient, id: number): Promise<Invitation> {
  return unwrap(api.POST('/api/v2/invitations/{id}/approve', { params: { path: { id } } }), 'Failed to approve invitation');
}

/** POST /api/v2/invitations/{id}/reject */
export function rejectInvitation(api: ApiClient, id: number, rejectionReason: string): Promise<Invitation> {
  return unwrap(api.POST('/api/v2/invitations/{id}/reject', { params: { path: { id } }, body: { rejectionReason } }), 'Failed to reject invitation');
}

export type CreateInvitationRequest = components['schemas']['CreateInvitationRequest'];

/** POST /api/v2/invitations?organizationId={id}: an administrator request or a role assignment, pending. */
export function createInvitation(api: ApiClient, organizationId: string, body: CreateInvitationRequest): Promise<Invitation> {
  return unwrap(api.POST('/api/v2/invitations', { params: { query: { organizationId } }, body }), 'Failed to create invitation');
}
