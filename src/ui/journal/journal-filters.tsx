import { useId } from 'react';
import { JOURNAL_ACTION_GROUP_KEYS, type JournalActionGroup } from '../../domain/journal';
import { frJournal } from '../../i18n/fr-journal';
import { OrganizationFilters, type OrganizationFiltersProps } from '../organization-filters';
import { DebouncedSearchInput } from '../debounced-search-input';

const t = frJournal.filters;

export interface JournalFiltersProps {
  period: { from: string; to: string; invalid: boolean; onChange: (changes: { from?: string; to?: string }) => void };
  action: { value: JournalActionGroup | ''; onChange: (value: JournalActionGroup | '') => void };
  /** Null: no SIREN filter offered. */
  sirens: OrganizationFiltersProps['sirens'];
  sirets: OrganizationFiltersProps['sirets'];
  search: { value: string; delayMs: number; onSearch: (text: string) => void };
  /** The author or person chosen from an entry, each removable. */
  chips: { key: string; label: string; onRemove: () => void }[];
}

function DayInput({ label, value, invalid, errorId, onChange }: { label: string; value: string; invalid: boolean; errorId: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="date"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
        className="rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm"
      />
    </div>
  );
}

/** Period, kind of change, SIREN and SIRET, free search, and the author or person chosen from an entry. */
export function JournalFilters({ period, action, sirens, sirets, search, chips }: JournalFiltersProps) {
  const actionId = useId();
  const errorId = useId();
  return (
    <div role="group" aria-label={t.label} className="space-y-3">
      <div className="flex flex-wrap items-end gap-4">
        <DayInput label={t.from} value={period.from} invalid={period.invalid} errorId={errorId} onChange={(from) => period.onChange({ from })} />
        <DayInput label={t.to} value={period.to} invalid={period.invalid} errorId={errorId} onChange={(to) => period.onChange({ to })} />
        <div className="flex flex-col gap-1">
          <label htmlFor={actionId} className="text-sm font-medium text-slate-700">
            {t.action}
          </label>
          <select
            id={actionId}
            value={action.value}
            onChange={(e) => action.onChange(e.target.value as JournalActionGroup | '')}
            className="w-64 max-w-full rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm"
          >
            <option value="">{t.all}</option>
            {JOURNAL_ACTION_GROUP_KEYS.map((key) => (
              <option key={key} value={key}>
                {frJournal.actions[key]}
              </option>
            ))}
          </select>
        </div>
        <OrganizationFilters sirens={sirens} sirets={sirets} />
        <DebouncedSearchInput value={search.value} label={t.searchLabel} placeholder={t.search} delayMs={search.delayMs} onSearch={search.onSearch} />
      </div>
      {period.invalid && (
        <p id={errorId} role="alert" className="text-sm text-red-700">
          {t.periodInvalid}
        </p>
      )}
      {chips.length > 0 && (
        <ul className="flex flex-wrap gap-2">
          {chips.map((chip) => (
            <li key={chip.key} className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-1 pr-1 pl-3 text-sm text-brand-900">
              {chip.label}
              <button type="button" onClick={chip.onRemove} aria-label={t.remove(chip.label)} className="rounded-full px-2 text-brand-900 hover:bg-brand-100">
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
