import { useId } from 'react';
import { frLists as fr } from '../../i18n/fr-lists';
import type { ComboboxOption } from '../combobox';
import { OrganizationFilters, type OrganizationFiltersProps } from '../organization-filters';
import { DebouncedSearchInput } from '../debounced-search-input';

export type Option = ComboboxOption;

export interface UsersFiltersProps {
  sirens: OrganizationFiltersProps['sirens'];
  sirets: OrganizationFiltersProps['sirets'];
  roles: { options: Option[]; value: string; onChange: (value: string) => void };
  search: { value: string; delayMs: number; onSearch: (text: string) => void };
}

const t = fr.usersList;

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
  return (
    <div className="flex flex-wrap items-end gap-4">
      <OrganizationFilters sirens={sirens} sirets={sirets} />
      <RoleSelect {...roles} />
      <div className="min-w-64 flex-1">
        <DebouncedSearchInput value={search.value} label={t.searchLabel} placeholder={t.search} delayMs={search.delayMs} onSearch={search.onSearch} />
      </div>
    </div>
  );
}
