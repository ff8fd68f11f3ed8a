import { frLists as fr } from '../i18n/fr-lists';

export type SortOrder = 'asc' | 'desc';

/** A column header that sorts; aria-sort says the order to screen readers. */
export function SortableHeader({ label, active, order, onSort }: { label: string; active: boolean; order: SortOrder; onSort: () => void }) {
  return (
    <th scope="col" aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'} className="px-3 py-2 text-left">
      <button type="button" onClick={onSort} className="inline-flex items-center gap-1 font-semibold hover:text-brand-700" title={fr.sort.sortBy(label)}>
        {label}
        <span aria-hidden="true" className={active ? 'text-brand-700' : 'text-slate-400'}>
          {active ? (order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}
