import { fr } from '../../i18n/fr';

export type InvitationStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'EXPIRED' | 'CANCELLED';

const PURPLE = 'bg-purple-100 text-purple-900 ring-purple-300';

/** Spec §2: green for approved, red for rejected, purple otherwise (expired and cancelled too); the label says it, not the colour alone. */
const COLORS: Record<InvitationStatus, string> = {
  APPROVED: 'bg-green-100 text-green-900 ring-green-300',
  REJECTED: 'bg-red-100 text-red-900 ring-red-300',
  PENDING: PURPLE,
  EXPIRED: PURPLE,
  CANCELLED: PURPLE,
};

export function InvitationStatusBadge({ status }: { status: InvitationStatus }) {
  return <span className={`inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${COLORS[status]}`}>{fr.invitations.status[status]}</span>;
}
