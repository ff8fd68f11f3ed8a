// OpenAPI Invitation, from a row of invitations. Pure.
import type { InvitationRow, InvitationStatus, InvitationType } from '../db/schema.ts';
import type { InvitationAction } from '../features/invitations/invitations.policy.ts';

export interface InvitationDto {
  id: number;
  inviteeEmail: string;
  createdAt: string;
  processedAt: string | null;
  /** When a pending request expires; once EXPIRED, when it did. */
  expiresAt: string;
  cancelledByEmail: string | null;
  cancellationReason: string | null;
  organizationCode: string;
  organizationName: string;
  organizationId: string | null;
  roleName: string;
  roleCode: string;
  status: InvitationStatus;
  invitationType: InvitationType;
  senderEmail: string | null;
  validatorEmail: string | null;
  rejectionReason: string | null;
  /** What the caller may do on it (approve, reject, cancel), as the request-lifecycle machine decides. */
  allowedActions: InvitationAction[];
}

export function toInvitationDto(row: InvitationRow, allowedActions: readonly InvitationAction[], expiresAt: Date): InvitationDto {
  return {
    id: row.id,
    inviteeEmail: row.invitee_email,
    createdAt: row.created_at.toISOString(),
    processedAt: row.processed_at ? row.processed_at.toISOString() : null,
    expiresAt: expiresAt.toISOString(),
    cancelledByEmail: row.cancelled_by_email,
    cancellationReason: row.cancellation_reason,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    organizationId: row.organization_id,
    roleName: row.role_name,
    roleCode: row.role_code,
    status: row.status,
    invitationType: row.invitation_type,
    senderEmail: row.sender_email,
    validatorEmail: row.validator_email,
    rejectionReason: row.rejection_reason,
    allowedActions: [...allowedActions],
  };
}
