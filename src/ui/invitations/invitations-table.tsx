import { fr } from '../../i18n/fr';
import { DataCard } from '../data-cards';
import { DataTable } from '../data-table';
import { ReasonHintButton } from '../reason-hint-button';
import type { SortOrder } from '../sortable-header';
import { InvitationStatusBadge, type InvitationStatus } from './status-badge';

export interface InvitationRow {
  id: number;
  inviteeEmail: string;
  createdAt: string;
  organizationCode: string;
  status: InvitationStatus;
  /** What the caller may do on it, as the server says (OpenAPI Invitation.allowedActions). */
  allowedActions: readonly ('approve' | 'reject' | 'cancel')[];
}

export type InvitationSort = 'id' | 'email' | 'createdAt';

export interface InvitationsTableProps {
  rows: InvitationRow[];
  /** The previous rows, shown while the asked-for ones load. */
  updating: boolean;
  sort: InvitationSort;
  order: SortOrder;
  formatDate: (iso: string) => string;
  onSort: (sort: InvitationSort, order: SortOrder) => void;
  onApprove: (row: InvitationRow) => void;
  onReject: (row: InvitationRow) => void;
  onView: (row: InvitationRow) => void;
}

const action = 'rounded-md px-2.5 py-1 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-40 aria-disabled:cursor-not-allowed aria-disabled:opacity-40';

export function InvitationsTable({ rows, updating, sort, order, formatDate, onSort, onApprove, onReject, onView }: InvitationsTableProps) {
  const t = fr.invitations;
  const rowActions = (row: InvitationRow) => {
    const decided = row.status !== 'PENDING';
    return (
      <div className="flex flex-wrap items-center justify-end gap-1 whitespace-nowrap lg:min-w-44">
        {/* Decided: disabled for everyone (spec §2). Pending but not the caller's to decide: disabled with the reason. */}
        <ReasonHintButton
          disabled={decided}
          reason={row.allowedActions.includes('approve') ? null : t.noRightApprove}
          onClick={() => onApprove(row)}
          aria-label={t.actionFor(t.approve, row.inviteeEmail)}
          className={`${action} bg-green-700 text-white hover:bg-green-800`}
        >
          {t.approve}
        </ReasonHintButton>
        <ReasonHintButton
          disabled={decided}
          reason={row.allowedActions.includes('reject') ? null : t.noRightReject}
          onClick={() => onReject(row)}
          aria-label={t.actionFor(t.reject, row.inviteeEmail)}
          className={`${action} bg-red-700 text-white hover:bg-red-800`}
        >
          {t.reject}
        </ReasonHintButton>
        <button type="button" onClick={() => onView(row)} aria-label={t.actionFor(t.view, row.inviteeEmail)} className={`${action} border border-slate-300 text-slate-800 hover:bg-slate-100`}>
          {t.view}
        </button>
      </div>
    );
  };
  return (
    <DataTable
      caption={t.tableCaption}
      updating={updating}
      columns={[
        { label: t.columns.id, sortKey: 'id' },
        { label: t.columns.email, sortKey: 'email' },
        { label: t.columns.createdAt, sortKey: 'createdAt' },
        { label: t.columns.siren },
        { label: t.columns.status },
        { label: t.columns.actions, align: 'right' },
      ]}
      sort={sort}
      order={order}
      onSort={onSort}
      cards={rows.map((row) => (
        <DataCard
          key={row.id}
          heading={row.inviteeEmail}
          fields={[
            { label: t.columns.id, value: <span className="font-mono">#{row.id}</span> },
            { label: t.columns.createdAt, value: formatDate(row.createdAt) },
            { label: t.columns.siren, value: <span className="font-mono">{row.organizationCode}</span> },
            { label: t.columns.status, value: <InvitationStatusBadge status={row.status} /> },
          ]}
          actions={rowActions(row)}
        />
      ))}
    >
      {rows.map((row) => (
        <tr key={row.id} className="bg-white hover:bg-slate-50">
          <td className="px-3 py-2 font-mono">#{row.id}</td>
          <td className="min-w-56 px-3 py-2 [overflow-wrap:anywhere]">{row.inviteeEmail}</td>
          <td className="px-3 py-2 whitespace-nowrap">{formatDate(row.createdAt)}</td>
          <td className="px-3 py-2 font-mono">{row.organizationCode}</td>
          <td className="px-3 py-2">
            <InvitationStatusBadge status={row.status} />
          </td>
          <td className="px-3 py-2">{rowActions(row)}</td>
        </tr>
      ))}
    </DataTable>
  );
}
