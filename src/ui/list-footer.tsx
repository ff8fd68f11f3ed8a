// What every paged list shows under its rows (users, requests, journal): the range read, the page size, the pages;
// and the message of a list with nothing to show.
import type { ReactNode } from 'react';
import type { PageItem, PageSize } from '../domain/pagination';
import { PageSizeSelect } from './page-size-select';
import { Pagination } from './pagination';

/** What a paged list's screen gives it: whether its rows load, the range read, the pages, and the moves between them. */
export interface PagedListProps {
  loading: boolean;
  /** The rows shown are the previous ones while the asked-for ones load. */
  updating: boolean;
  summary: string;
  pagination: { page: number; totalPages: number; items: PageItem[] };
  onPage: (page: number) => void;
  onPageSize: (size: PageSize) => void;
}

export function ListFooter(props: {
  summary: string;
  pageSize: PageSize;
  pageSizeLabel: string;
  onPageSize: (size: PageSize) => void;
  pagination: PagedListProps['pagination'];
  onPage: (page: number) => void;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <p role="status" className="text-sm text-slate-700">
        {props.summary}
      </p>
      <PageSizeSelect value={props.pageSize} label={props.pageSizeLabel} onChange={props.onPageSize} />
      <Pagination {...props.pagination} onPage={props.onPage} />
    </div>
  );
}

/** A list with nothing to show (its French message). */
export function EmptyList({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
      {children}
    </p>
  );
}
