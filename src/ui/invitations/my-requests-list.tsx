import type { ReactNode } from 'react';
import { INVITATION_STATUS_FILTERS, type InvitationStatusFilter } from '../../domain/invitation-status';
import type { PageSize } from '../../domain/pagination';
import { fr } from '../../i18n/fr';
import { roleDisplayLabel } from '../../../rules/roles';
import { DataCard } from '../data-cards';
import { DataTable } from '../data-table';
import { EmptyList, ListFooter, type PagedListProps } from '../list-footer';
import { SegmentedFilter } from '../segmented-filter';
import { Spinner } from '../spinner';
import { InvitationStatusBadge, type InvitationStatus } from './status-badge';

export interface MyRequestRow {
  id: number;
  inviteeEmail: string;
  roleName: string;
  organizationName: string;
  organizationCode: string;
  createdAt: string;
  expiresAt: string;
  status: InvitationStatus;
  /** Whether the server lets the caller cancel it (allowedActions). */
  canCancel: boolean;
}

export interface MyRequestsListProps extends PagedListProps {
  status: InvitationStatusFilter;
  pageSize: PageSize;
  rows: MyRequestRow[];
  formatDate: (iso: string) => string;
  /** A day alone (DD/MM/YYYY): when a pending request expires. */
  formatDay: (iso: string) => string;
  onStatus: (status: InvitationStatusFilter) => void;
  onCancel: (row: MyRequestRow) => void;
  /** The link back to the chooser. */
  back: ReactNode;
}

const t = fr.myRequests;
const NO_SORT = () => {};

/** 'Mes demandes' (issue 22): the requests the signed-in person made, their status, and 'Annuler' on a pending one. */
export function MyRequestsList(props: MyRequestsListProps) {
  const status = (row: MyRequestRow) => (
    <>
      <InvitationStatusBadge status={row.status} />
      {row.status === 'PENDING' && <span className="mt-1 block text-xs whitespace-nowrap text-slate-600">{t.expiresOn(props.formatDay(row.expiresAt))}</span>}
    </>
  );
  const organization = (row: MyRequestRow) => (
    <>
      {row.organizationName} <span className="font-mono text-slate-600">({row.organizationCode})</span>
    </>
  );
  const cancel = (row: MyRequestRow) =>
    row.canCancel && (
      <button
        type="button"
        onClick={() => props.onCancel(row)}
        aria-label={t.cancelFor(row.inviteeEmail)}
        className="rounded-md border border-slate-400 px-2.5 py-1 text-sm font-medium text-slate-800 hover:bg-slate-100"
      >
        {t.cancel}
      </button>
    );
  return (
    <div className="max-w-6xl space-y-5">
      {props.back}
      <h1 className="text-2xl font-bold text-slate-900">{t.heading}</h1>
      <p className="text-slate-700">{t.intro}</p>
      <SegmentedFilter label={t.filterLabel} value={props.status} onChange={props.onStatus} options={INVITATION_STATUS_FILTERS.map((value) => ({ value, label: fr.invitations.filters[value] }))} />
      {props.loading ? (
        <Spinner label={t.loading} />
      ) : props.rows.length === 0 ? (
        <EmptyList>{props.status === 'all' ? t.empty : t.emptyFiltered}</EmptyList>
      ) : (
        <DataTable
          caption={t.tableCaption}
          updating={props.updating}
          // Newest first, as the server answers; no column sorts.
          sort="createdAt"
          order="desc"
          onSort={NO_SORT}
          columns={[
            // The status next to the number: on a narrow screen both stay in sight, the rest scrolls.
            { label: t.columns.id },
            { label: t.columns.status },
            { label: t.columns.email },
            { label: t.columns.role },
            { label: t.columns.organization },
            { label: t.columns.createdAt },
            { label: t.columns.actions, align: 'right' },
          ]}
          cards={props.rows.map((row) => (
            <DataCard
              key={row.id}
              heading={row.inviteeEmail}
              fields={[
                { label: t.columns.id, value: <span className="font-mono">#{row.id}</span> },
                { label: t.columns.status, value: status(row) },
                { label: t.columns.role, value: roleDisplayLabel(row.roleName) },
                { label: t.columns.organization, value: organization(row) },
                { label: t.columns.createdAt, value: props.formatDate(row.createdAt) },
              ]}
              actions={cancel(row)}
            />
          ))}
        >
          {props.rows.map((row) => (
            <tr key={row.id} className="bg-white hover:bg-slate-50">
              <td className="px-3 py-2 font-mono">#{row.id}</td>
              <td className="px-3 py-2">
                {status(row)}
              </td>
              <td className="min-w-48 px-3 py-2 [overflow-wrap:anywhere]">{row.inviteeEmail}</td>
              <td className="px-3 py-2">{roleDisplayLabel(row.roleName)}</td>
              <td className="px-3 py-2">
                {organization(row)}
              </td>
              <td className="px-3 py-2 whitespace-nowrap">{props.formatDate(row.createdAt)}</td>
              <td className="px-3 py-2 text-right">
                {cancel(row)}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ListFooter
        summary={props.summary}
        pageSize={props.pageSize}
        pageSizeLabel={fr.invitations.pageSize}
        onPageSize={props.onPageSize}
        pagination={props.pagination}
        onPage={props.onPage}
      />
    </div>
  );
}
