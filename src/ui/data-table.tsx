import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { DataCards, type Column } from './data-cards';
import { SortableHeader, type SortOrder } from './sortable-header';
import { SM_UP, useMediaQuery } from './use-media-query';

export type { Column } from './data-cards';

/** Whether the table is wider than its frame (a phone, 200 % zoom), followed as either changes size. */
function useOverflowsX(frame: RefObject<HTMLDivElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = frame.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    measure();
    return () => observer.disconnect();
  }, [frame]);
  return overflows;
}

// The actions column stays in view while the rest scrolls under it; its cells take their row's background
// (rows give themselves an opaque one: white, or the tint of an inactive user), hover included.
const STICKY_ACTIONS =
  '[&_tr>*:last-child]:sticky [&_tr>*:last-child]:right-0 [&_tr>*:last-child]:shadow-[-8px_0_8px_-8px_rgb(15_23_42/0.3)] [&_td:last-child]:bg-inherit [&_th:last-child]:bg-slate-50';

interface DataTableProps<S extends string> {
  /** The table's name, read by screen readers, also the name of its scrolling frame (and of the list of cards). */
  caption: string;
  /** The rows shown are the previous ones while the asked-for ones load: aria-busy, and dimmed. */
  updating?: boolean;
  columns: Column<S>[];
  sort: S;
  order: SortOrder;
  /** A header pressed asks for its key, ascending, or the other way when it is already the sort. */
  onSort: (sort: S, order: SortOrder) => void;
  /** The rows (<tr>). */
  children: ReactNode;
  /** The same rows as <DataCard>s: drawn instead of the table below 640 px (issue 18). */
  cards?: ReactNode;
  /** Above the cards, beside the sort: what the table has in its header row (the page's selection box). */
  cardTools?: ReactNode;
}

/**
 * The frame every list shares. From 640 px, a table: headers (sortable or not) and the rows given; below, when the
 * list gives them, its rows as cards with the sort as a select. One or the other is drawn, never both: each
 * control stays one in the page, for the keyboard, screen readers and tests alike.
 */
export function DataTable<S extends string>({ cards, cardTools, ...props }: DataTableProps<S>) {
  const wide = useMediaQuery(SM_UP, true);
  if (cards !== undefined && !wide) {
    return (
      <DataCards caption={props.caption} updating={props.updating ?? false} columns={props.columns} sort={props.sort} order={props.order} onSort={props.onSort} tools={cardTools}>
        {cards}
      </DataCards>
    );
  }
  return <TableFrame {...props} />;
}

/**
 * The table: too wide for the screen, it scrolls inside its own frame, not the page (WCAG 1.4.10), keeps its
 * actions column in view, and the frame takes the focus so that a keyboard can scroll it (a named region, after
 * Heydon Pickering's 'Inclusive Components: Data Tables').
 */
function TableFrame<S extends string>({ caption, updating = false, columns, sort, order, onSort, children }: Omit<DataTableProps<S>, 'cards' | 'cardTools'>) {
  const frame = useRef<HTMLDivElement>(null);
  const overflows = useOverflowsX(frame);
  const captionId = useId();
  return (
    <div
      ref={frame}
      role="region"
      aria-labelledby={captionId}
      tabIndex={overflows ? 0 : undefined}
      className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <table aria-busy={updating || undefined} className={`min-w-full divide-y divide-slate-200 text-sm transition-opacity ${updating ? 'opacity-60' : ''} ${overflows ? STICKY_ACTIONS : ''}`}>
        <caption id={captionId} className="sr-only">
          {caption}
        </caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            {columns.map((column) => {
              const sortKey = column.sortKey;
              return sortKey ? (
                <SortableHeader key={column.label} label={column.label} active={sort === sortKey} order={order} onSort={() => onSort(sortKey, sort === sortKey && order === 'asc' ? 'desc' : 'asc')} />
              ) : (
                <th key={column.label} scope="col" className={`px-3 py-2 font-semibold ${column.align === 'right' ? 'text-right' : 'text-left'}`}>
                  {column.header ?? column.label}
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
