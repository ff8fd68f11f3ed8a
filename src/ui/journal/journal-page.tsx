import type { ReactNode } from 'react';
import type { PageItem, PageSize } from '../../domain/pagination';
import { frJournal } from '../../i18n/fr-journal';
import { Spinner } from '../spinner';
import { EmptyList, ListFooter } from '../list-footer';

export interface JournalPageProps {
  filters: ReactNode;
  /** Beside the title: what the page offers on the whole journal (an export). */
  actions?: ReactNode;
  loading: boolean;
  empty: boolean;
  /** A French message when the page could not be loaded. */
  error: string | null;
  entries: ReactNode;
  summary: string;
  pageSize: PageSize;
  onPageSize: (size: PageSize) => void;
  pagination: { page: number; totalPages: number; items: PageItem[]; onPage: (page: number) => void };
}

const t = frJournal;

/** /journal: the journal of every change, filtered, newest first, paged. */
export function JournalPage(props: JournalPageProps) {
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="space-y-1">
          <h1 className="text-2xl font-bold text-slate-900">{t.title}</h1>
          <p className="text-slate-700">{t.intro}</p>
        </div>
        {props.actions}
      </div>
      {props.filters}
      {props.loading ? (
        <Spinner label={t.loading} />
      ) : props.error ? (
        <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-800">
          {props.error}
        </p>
      ) : props.empty ? (
        <EmptyList>{t.empty}</EmptyList>
      ) : (
        props.entries
      )}
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
