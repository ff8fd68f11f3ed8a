import { useId } from 'react';
import { frLists as fr } from '../../i18n/fr-lists';
import { Combobox, type ComboboxOption } from '../combobox';
import { DebouncedSearchInput } from '../debounced-search-input';

export type Option = ComboboxOption;

export interface UsersFiltersProps {
  /** Null: the SIREN filter is not offered (organization users without USER_LIST or SIRENs). Searched on the server. */
  sirens: { options: Option[]; selected: Option | null; loading: boolean; search: string; onSearch: (text: string) => void; onChange: (value: string) => void } | null;
  /** Null: no single SIREN chosen. Searched among the options. */
  sirets: { options: Option[]; selected: Option | null; loading: boolean; onChange: (value: string) => void } | null;
  roles: { options: Option[]; value: string; onChange: (value: string) => void };
  search: { value: string; delayMs: number; onSearch: (text: string) => void };
}

const t = fr.usersList;
/** The SIREN search waits 300 ms, as the edit page's (spec §9). */
const SIREN_SEARCH_MS = 300;

/** The role filter: a native select (a few options, no search), accessible as it is. Fixed width: no shift when the roles arrive. */
function RoleSelect({ value, options, onChange }: UsersFiltersProps['roles']) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {t.role}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className="w-64 max-w-full truncate rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm">
        <option value="">{t.all}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Spec §2 /utilisateurs filters: SIREN (with search, 'Tous'), SIRET of the chosen SIREN ('Tous' when several), role, and the name or email search. */
export function UsersFilters({ sirens, sirets, roles, search }: UsersFiltersProps) {
  const single = sirets?.options.length === 1 ? sirets.options[0]! : null;
  return (
    <div className="flex flex-wrap items-end gap-4">
      {sirens && (
        <Combobox
          label={t.siren}
          placeholder={t.sirenSearch}
          options={sirens.options}
          selected={sirens.selected}
          allLabel={t.all}
          onSelect={sirens.onChange}
          search={{ value: sirens.search, delayMs: SIREN_SEARCH_MS, onSearch: sirens.onSearch }}
          loading={sirens.loading}
        />
      )}
      {sirets && (
        <Combobox
          label={t.siret}
          placeholder={t.siretSearch}
          options={sirets.options}
          selected={sirets.selected ?? single}
          allLabel={single ? undefined : t.all}
          onSelect={sirets.onChange}
          loading={sirets.loading}
        />
      )}
      <RoleSelect {...roles} />
      <div className="min-w-64 flex-1">
        <DebouncedSearchInput value={search.value} label={t.searchLabel} placeholder={t.search} delayMs={search.delayMs} onSearch={search.onSearch} />
      </div>
    </div>
  );
}
