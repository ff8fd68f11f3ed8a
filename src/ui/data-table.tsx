import type { ReactNode } from 'react';
import { SortableHeader, type SortOrder } from './sortable-header';

export interface Column<S extends string> {
  label: string;
  /** A column that sorts by this key when its header is pressed. */
  sortKey?: S;
  align?: 'left' | 'right';
}

/** The frame every list table shares: scrolling on small screens, headers (sortable or not), and the rows given. */
export function DataTable<S extends string>({ columns, sort, order, onSort, children }: { columns: Column<S>[]; sort: S; order: SortOrder; onSort: (sort: S) => void; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            {columns.map((column) => {
              const sortKey = column.sortKey;
              return sortKey ? (
                <SortableHeader key={column.label} label={column.label} active={sort === sortKey} order={order} onSort={() => onSort(sortKey)} />
              ) : (
                <th key={column.label} scope="col" className={`px-3 py-2 font-semibold ${column.align === 'right' ? 'text-right' : 'text-left'}`}>
                  {column.label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}
