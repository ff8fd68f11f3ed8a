import type { ReactNode } from 'react';
import { frLists as fr } from '../i18n/fr-lists';
import { LabelledSelect } from './page-size-select';
import type { SortOrder } from './sortable-header';

/** A list's column, in the table's header and, when it sorts, in the cards' sort select. */
export interface Column<S extends string> {
  label: string;
  /** A column that sorts by this key when its header is pressed. */
  sortKey?: S;
  align?: 'left' | 'right';
  /** Drawn in the header instead of the label (the page's selection box); the label then names nothing visible. */
  header?: ReactNode;
}

const ORDERS: SortOrder[] = ['asc', 'desc'];

/**
 * A list's rows as cards, below 640 px (issue 18): a named list of <DataCard>s, with the sort as a select and what
 * else the list offers above its rows (`tools`: the page's selection box).
 */
export function DataCards<S extends string>(props: {
  caption: string;
  updating: boolean;
  columns: Column<S>[];
  sort: S;
  order: SortOrder;
  onSort: (sort: S, order: SortOrder) => void;
  tools?: ReactNode;
  children: ReactNode;
}) {
  const sortable = props.columns.flatMap(({ label, sortKey }) => (sortKey === undefined ? [] : [{ label, sortKey }]));
  return (
    <div className="space-y-3">
      {(props.tools || sortable.length > 0) && (
        <div className="flex flex-wrap items-center justify-between gap-3">
          {props.tools}
          {sortable.length > 0 && (
            // A phone has no column header to press: each sortable column, both ways, in one select.
            <LabelledSelect
              label={fr.sort.label}
              value={`${props.sort}:${props.order}`}
              options={sortable.flatMap(({ label, sortKey }) => ORDERS.map((order) => ({ value: `${sortKey}:${order}`, label: fr.sort.option(label, order) })))}
              onChange={(value) => {
                const [sort, order] = value.split(':') as [S, SortOrder];
                props.onSort(sort, order);
              }}
            />
          )}
        </div>
      )}
      <ul aria-label={props.caption} aria-busy={props.updating || undefined} className={`space-y-3 transition-opacity ${props.updating ? 'opacity-60' : ''}`}>
        {props.children}
      </ul>
    </div>
  );
}

/**
 * One row as a card: a box before it (the selection), its heading (who or what), a line under it in full (an
 * e-mail), its fields as a definition list, and its actions, in the table's order for the keyboard.
 */
export function DataCard(props: {
  lead?: ReactNode;
  heading: ReactNode;
  subheading?: ReactNode;
  fields: { label: string; value: ReactNode }[];
  actions: ReactNode;
  /** The card's background (an inactive user's tint); white otherwise. */
  tone?: string;
}) {
  return (
    <li className={`rounded-xl border border-slate-200 p-4 shadow-sm ${props.tone ?? 'bg-white'}`}>
      <div className="flex items-start gap-3">
        {props.lead}
        <div className="min-w-0 flex-1 space-y-2">
          <div>
            <h2 className="font-semibold text-slate-900 [overflow-wrap:anywhere]">{props.heading}</h2>
            {props.subheading && <p className="text-sm text-slate-800 [overflow-wrap:anywhere]">{props.subheading}</p>}
          </div>
          {/* Each value after its label, or under it when the line is too short for both (a 320 px screen). */}
          <dl className="space-y-1 text-sm">
            {props.fields.map((field) => (
              <div key={field.label} className="flex flex-wrap items-center gap-x-2">
                <dt className="text-slate-600 after:content-['\00a0:']">{field.label}</dt>
                <dd className="min-w-0 text-slate-900 [overflow-wrap:anywhere]">{field.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </div>
      {props.actions && <div className="mt-3 flex flex-wrap items-center justify-end gap-2">{props.actions}</div>}
    </li>
  );
}
