import type { ReactNode } from 'react';
import type { BulkActionName } from '../../domain/user-actions';
import { frBulk as t } from '../../i18n/fr-bulk';

export interface BulkToolbarProps {
  count: number;
  /** Every result of the filters is selected (not only people ticked one by one). */
  allSelected: boolean;
  /** Offered once the whole page is ticked and the filters hold more people: their exact number. */
  selectAll: { total: number; onSelect: () => void } | null;
  actions: BulkActionName[];
  onChoose: (action: BulkActionName) => void;
  onClear: () => void;
  /** The selection's CSV export (its own control). */
  exportControl?: ReactNode;
}

const button = 'rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50';
const link = 'text-sm font-semibold text-brand-700 underline-offset-2 hover:underline';

/**
 * What is selected on the users list, and what may be done with it (issue 22): held at the bottom of the screen
 * while the list scrolls; on a phone its actions scroll sideways in one line.
 */
export function BulkToolbar({ count, allSelected, selectAll, actions, onChoose, onClear, exportControl }: BulkToolbarProps) {
  return (
    <section aria-label={t.toolbar} className="sticky bottom-2 z-20 space-y-2 rounded-xl border border-brand-100 bg-brand-50 p-3 shadow-lg">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <p role="status" className="font-semibold text-slate-900">
          {t.selected(count)}
        </p>
        {allSelected ? (
          <p className="text-sm text-slate-700">{t.allSelected(count)}</p>
        ) : (
          selectAll && (
            <button type="button" className={link} onClick={selectAll.onSelect}>
              {t.selectAll(selectAll.total)}
            </button>
          )
        )}
        <button type="button" className={link} onClick={onClear}>
          {t.clear}
        </button>
      </div>
      <div className="-mx-1 flex items-center gap-2 overflow-x-auto px-1 pb-1 sm:flex-wrap [&>*]:shrink-0">
        {actions.map((action) => (
          <button key={action} type="button" className={action === 'delete' ? `${button} border-red-300 text-red-800 hover:bg-red-50` : button} onClick={() => onChoose(action)}>
            {t.action[action]}
          </button>
        ))}
        {exportControl}
      </div>
    </section>
  );
}
