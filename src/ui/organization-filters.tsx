// The SIREN and SIRET filters of a list (users, journal): the SIRENs searched on the server, 'Tous'; the SIRETs of
// the chosen SIREN, searched among the options, 'Tous' when several.
import { frLists as fr } from '../i18n/fr-lists';
import { Combobox, type ComboboxOption } from './combobox';

export interface OrganizationFiltersProps {
  /** Null: the SIREN filter is not offered (organization users without USER_LIST or SIRENs). Searched on the server. */
  sirens: { options: ComboboxOption[]; selected: ComboboxOption | null; loading: boolean; search: string; onSearch: (text: string) => void; onChange: (value: string) => void } | null;
  /** Null: no single SIREN chosen. Searched among the options. */
  sirets: { options: ComboboxOption[]; selected: ComboboxOption | null; loading: boolean; onChange: (value: string) => void } | null;
}

const t = fr.usersList;
/** The SIREN search waits 300 ms, as the edit page's (spec §9). */
const SIREN_SEARCH_MS = 300;

export function OrganizationFilters({ sirens, sirets }: OrganizationFiltersProps) {
  const single = sirets?.options.length === 1 ? sirets.options[0]! : null;
  return (
    <>
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
    </>
  );
}
