import type { ReactNode } from 'react';
import { fr } from '../../i18n/fr';
import { InvitationStatusBadge, type InvitationStatus } from './status-badge';

export interface InvitationDetailData {
  id: number;
  inviteeEmail: string;
  organizationCode: string;
  organizationName: string;
  roleName: string;
  status: InvitationStatus;
  senderEmail: string | null;
  validatorEmail: string | null;
  createdAt: string;
  processedAt: string | null;
  rejectionReason: string | null;
  expiresAt: string;
  cancelledByEmail: string | null;
  cancellationReason: string | null;
}

const DASH = '—';

/**
 * Every field of spec §2 /admin/{id}; a dash for what is missing; the reason only when rejected. Issue 22: when a
 * pending request expires, when an expired one did, and who cancelled a cancelled one (when, and their reason).
 */
export function InvitationDetail({ invitation, formatDate }: { invitation: InvitationDetailData; formatDate: (iso: string) => string }) {
  const f = fr.invitations.detail.fields;
  const rows: [string, ReactNode][] = [
    [f.inviteeEmail, invitation.inviteeEmail],
    [f.organizationCode, <span className="font-mono">{invitation.organizationCode}</span>],
    [f.organizationName, invitation.organizationName || DASH],
    [f.roleName, invitation.roleName || DASH],
    [f.status, <InvitationStatusBadge status={invitation.status} />],
    [f.senderEmail, invitation.senderEmail ?? DASH],
    [f.validatorEmail, invitation.validatorEmail ?? DASH],
    [f.createdAt, formatDate(invitation.createdAt)],
  ];
  const decided = invitation.status === 'APPROVED' || invitation.status === 'REJECTED';
  rows.push([f.processedAt, decided && invitation.processedAt ? formatDate(invitation.processedAt) : DASH]);
  if (invitation.status === 'REJECTED') rows.push([f.rejectionReason, invitation.rejectionReason ?? DASH]);
  if (invitation.status === 'PENDING') rows.push([f.expiresAt, formatDate(invitation.expiresAt)]);
  if (invitation.status === 'EXPIRED') rows.push([f.expiredAt, formatDate(invitation.expiresAt)]);
  if (invitation.status === 'CANCELLED') {
    rows.push([f.cancelledBy, invitation.cancelledByEmail ?? DASH], [f.cancelledAt, invitation.processedAt ? formatDate(invitation.processedAt) : DASH]);
    rows.push([f.cancellationReason, invitation.cancellationReason ?? DASH]);
  }
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-sm font-medium text-slate-600">{label}</dt>
          <dd className="mt-1 break-words text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
