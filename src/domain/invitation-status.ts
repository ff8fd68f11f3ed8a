// The statuses of a request as the screens filter them (spec §2's four, and issue 22's 'Expirée' and 'Annulée').

export const INVITATION_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'EXPIRED', 'CANCELLED'] as const;
export type InvitationStatusValue = (typeof INVITATION_STATUSES)[number];

/** The filter buttons, in their order: 'Tous' first. */
export const INVITATION_STATUS_FILTERS = ['all', ...INVITATION_STATUSES] as const;
export type InvitationStatusFilter = (typeof INVITATION_STATUS_FILTERS)[number];

/** The API's `status` for a filter: 'all' names every status (pending,approved,rejected,expired,cancelled). */
export function statusQuery(filter: InvitationStatusFilter): string {
  return filter === 'all' ? INVITATION_STATUSES.map((s) => s.toLowerCase()).join(',') : filter.toLowerCase();
}

/** The back office's list of requests that need a look (OpenAPI listInvitations `waiting`, issue 24). */
export const WAITING_FILTERS = ['longPending', 'expiringSoon'] as const;
export type WaitingFilter = (typeof WAITING_FILTERS)[number];
