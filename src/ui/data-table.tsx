import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { SortableHeader, type SortOrder } from './sortable-header';

export interface Column<S extends string> {
  label: string;
  /** A column that sorts by this key when its header is pressed. */
  sortKey?: S;
  align?: 'left' | 'right';
  /** Drawn in the header instead of the label (the page's selection box); the label then names nothing visible. */
  header?: ReactNode;
}

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

/**
 * The frame every list table shares: headers (sortable or not) and the rows given. Too wide for the screen,
 * it scrolls inside its own frame, not the page (WCAG 1.4.10), keeps its actions column in view, and the
 * frame takes the focus so that a keyboard can scroll it (a named region, after Heydon Pickering's
 * 'Inclusive Components: Data Tables').
 */
export function DataTable<S extends string>({
  caption,
  updating = false,
  columns,
  sort,
  order,
  onSort,
  children,
}: {
  /** The table's name, read by screen readers, also the name of its scrolling frame. */
  caption: string;
  /** The rows shown are the previous ones while the asked-for ones load: aria-busy, and dimmed. */
  updating?: boolean;
  columns: Column<S>[];
  sort: S;
  order: SortOrder;
  onSort: (sort: S) => void;
  children: ReactNode;
}) {
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
                <SortableHeader key={column.label} label={column.label} active={sort === sortKey} order={order} onSort={() => onSort(sortKey)} />
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
