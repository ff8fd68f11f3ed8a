import type { ReactNode } from 'react';
import type { PageItem, PageSize } from '../../domain/pagination';
import { frLists as fr } from '../../i18n/fr-lists';
import { Spinner } from '../spinner';
import { EmptyList, ListFooter } from '../list-footer';

export interface UsersListProps {
  title: string;
  canAdd: boolean;
  canRequestAdmin: boolean;
  onAdd: () => void;
  onRequestAdmin: () => void;
  /** More actions on the list, before the others (the CSV export). */
  actions?: ReactNode;
  filters: ReactNode;
  /**
   * What is selected and what may be done with it (issue 22): after the table, so that the rows do not move when it
   * appears, and kept at the bottom of the screen while a long page scrolls.
   */
  toolbar?: ReactNode;
  loading: boolean;
  empty: boolean;
  table: ReactNode;
  summary: string;
  pageSize: PageSize;
  onPageSize: (size: PageSize) => void;
  pagination: { page: number; totalPages: number; items: PageItem[]; onPage: (page: number) => void };
}

const t = fr.usersList;

/** Spec §2 /utilisateurs: the page around the filters and the table. */
export function UsersList(props: UsersListProps) {
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{props.title}</h1>
        <div className="flex flex-wrap gap-2">
          {props.actions}
          {props.canRequestAdmin && (
            <button type="button" onClick={props.onRequestAdmin} className="rounded-lg border border-brand-600 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50">
              {t.requestAdmin}
            </button>
          )}
          {props.canAdd && (
            <button type="button" onClick={props.onAdd} className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
              {t.add}
            </button>
          )}
        </div>
      </div>
      {props.filters}
      {props.loading ? (
        <Spinner label={t.loading} />
      ) : props.empty ? (
        <EmptyList>{t.empty}</EmptyList>
      ) : (
        props.table
      )}
      {props.toolbar}
      <ListFooter
        summary={props.summary}
        pageSize={props.pageSize}
        pageSizeLabel={t.pageSize}
        onPageSize={props.onPageSize}
        pagination={props.pagination}
        onPage={props.pagination.onPage}
      />
    </div>
  );
}
