import { INVITATION_STATUS_FILTERS, type InvitationStatusFilter } from '../../domain/invitation-status';
import type { PageSize } from '../../domain/pagination';
import { fr } from '../../i18n/fr';
import { DebouncedSearchInput } from '../debounced-search-input';
import { SegmentedFilter } from '../segmented-filter';
import { Spinner } from '../spinner';
import { EmptyList, ListFooter, type PagedListProps } from '../list-footer';
import type { SortOrder } from '../sortable-header';
import { InvitationsTable, type InvitationRow, type InvitationSort } from './invitations-table';

type StatusFilter = InvitationStatusFilter;

export interface InvitationsListProps extends PagedListProps {
  search: { status: StatusFilter; search: string; sort: InvitationSort; order: SortOrder; page: number; pageSize: PageSize };
  rows: InvitationRow[];
  searchDebounceMs: number;
  formatDate: (iso: string) => string;
  onStatus: (status: StatusFilter) => void;
  /** The Accueil's filter of pending requests that need a look (issue 24), when on: what it keeps, and its removal. */
  waiting?: { notice: string; onClear: () => void } | null;
  onSearch: (text: string) => void;
  onSort: (sort: InvitationSort, order: SortOrder) => void;
  /** Whether 'Créer une nouvelle demande' is offered: /admin-actions needs USER_CREATE (a read-only back office lacks it). */
  canCreate: boolean;
  onCreate: () => void;
  onApprove: (row: InvitationRow) => void;
  onReject: (row: InvitationRow) => void;
  onView: (row: InvitationRow) => void;
}

const t = fr.invitations;

/** Spec §2 /admin: the requests for administrator rights, filtered, searched, sorted and paged. */
export function InvitationsList(props: InvitationsListProps) {
  const { search } = props;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{t.heading}</h1>
        {props.canCreate && (
          <button type="button" onClick={props.onCreate} className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
            {t.create}
          </button>
        )}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SegmentedFilter
          label={t.filterLabel}
          value={search.status}
          onChange={props.onStatus}
          options={INVITATION_STATUS_FILTERS.map((value) => ({ value, label: t.filters[value] }))}
        />
        <DebouncedSearchInput value={search.search} label={t.searchLabel} placeholder={t.search} delayMs={props.searchDebounceMs} onSearch={props.onSearch} />
      </div>
      {props.waiting && (
        <p role="status" className="text-slate-700">
          {props.waiting.notice}{' '}
          <button type="button" onClick={props.waiting.onClear} className="font-medium text-brand-700 underline">
            {t.clearWaiting}
          </button>
        </p>
      )}
      {props.loading ? (
        <Spinner label={t.loading} />
      ) : props.rows.length === 0 ? (
        <EmptyList>{t.empty}</EmptyList>
      ) : (
        <InvitationsTable
          rows={props.rows}
          updating={props.updating}
          sort={search.sort}
          order={search.order}
          formatDate={props.formatDate}
          onSort={props.onSort}
          onApprove={props.onApprove}
          onReject={props.onReject}
          onView={props.onView}
        />
      )}
      <ListFooter
        summary={props.summary}
        pageSize={search.pageSize}
        pageSizeLabel={t.pageSize}
        onPageSize={props.onPageSize}
        pagination={props.pagination}
        onPage={props.onPage}
      />
    </div>
  );
}
