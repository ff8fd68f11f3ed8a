import { useId } from 'react';
import { frLists as fr } from '../../i18n/fr-lists';
import type { ComboboxOption } from '../combobox';
import { OrganizationFilters, type OrganizationFiltersProps } from '../organization-filters';
import { DebouncedSearchInput } from '../debounced-search-input';

export type Option = ComboboxOption;

interface SelectFilter {
  options: Option[];
  value: string;
  onChange: (value: string) => void;
}

export interface UsersFiltersProps {
  sirens: OrganizationFiltersProps['sirens'];
  sirets: OrganizationFiltersProps['sirets'];
  roles: SelectFilter;
  /** 'État du compte' (issues 23 and 24): '' for every account. */
  accountStates: SelectFilter;
  search: { value: string; delayMs: number; onSearch: (text: string) => void };
}

const t = fr.usersList;

/** A filter of a few options ('Tous' first): a native select, accessible as it is. Fixed width: no shift when the options arrive. */
function FilterSelect({ label, value, options, onChange }: SelectFilter & { label: string }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
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

/**
 * Spec §2 /utilisateurs filters: SIREN (with search, 'Tous'), SIRET of the chosen SIREN ('Tous' when several), role,
 * the state of the account (issues 23 and 24), and the name or email search.
 */
export function UsersFilters({ sirens, sirets, roles, accountStates, search }: UsersFiltersProps) {
  return (
    <div className="flex flex-wrap items-end gap-4">
      <OrganizationFilters sirens={sirens} sirets={sirets} />
      <FilterSelect label={t.role} {...roles} />
      <FilterSelect label={t.accountState} {...accountStates} />
      <div className="min-w-64 flex-1">
        <DebouncedSearchInput value={search.value} label={t.searchLabel} placeholder={t.search} delayMs={search.delayMs} onSearch={search.onSearch} />
      </div>
    </div>
  );
}
