import { useId } from 'react';
import { fr } from '../../i18n/fr';
import { DebouncedSearchInput } from '../debounced-search-input';

export interface Option {
  value: string;
  label: string;
}

export interface UsersFiltersProps {
  /** Null: the SIREN filter is not offered (organization users without USER_LIST or SIRENs). */
  sirens: { options: Option[]; value: string; search: string; onSearch: (text: string) => void; onChange: (value: string) => void } | null;
  /** Null: no single SIREN chosen. */
  sirets: { options: Option[]; value: string; onChange: (value: string) => void } | null;
  roles: { options: Option[]; value: string; onChange: (value: string) => void };
  search: { value: string; delayMs: number; onSearch: (text: string) => void };
}

const t = fr.usersList;
// A fixed width: the options arrive after the first paint, and a select as wide as its longest option would
// then widen, wrap the filters onto another line and push the list down (a layout shift).
const select = 'w-64 max-w-full truncate rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm';

/** A filter; 'Tous' is offered when there is a choice (spec §2: the SIRET dropdown offers it when there are several). */
function Select({ label, value, options, onChange, withAll = true }: { label: string; value: string; options: Option[]; onChange: (v: string) => void; withAll?: boolean }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <select id={id} value={withAll ? value : value || options[0]?.value || ''} onChange={(e) => onChange(e.target.value)} className={select}>
        {withAll && <option value="">{t.all}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Spec §2 /utilisateurs filters: SIREN (with its own search), SIRET of the chosen SIREN, role, and the name or email search. */
export function UsersFilters({ sirens, sirets, roles, search }: UsersFiltersProps) {
  return (
    <div className="flex flex-wrap items-end gap-4">
      {sirens && (
        <div className="flex flex-wrap items-end gap-2">
          <div className="w-56">
            <DebouncedSearchInput value={sirens.search} label={t.sirenSearch} placeholder={t.sirenSearch} delayMs={300} onSearch={sirens.onSearch} />
          </div>
          <Select label={t.siren} value={sirens.value} options={sirens.options} onChange={sirens.onChange} />
        </div>
      )}
      {sirets && <Select label={t.siret} value={sirets.value} options={sirets.options} onChange={sirets.onChange} withAll={sirets.options.length !== 1} />}
      <Select label={t.role} value={roles.value} options={roles.options} onChange={roles.onChange} />
      <div className="min-w-64 flex-1">
        <DebouncedSearchInput value={search.value} label={t.searchLabel} placeholder={t.search} delayMs={search.delayMs} onSearch={search.onSearch} />
      </div>
    </div>
  );
}
