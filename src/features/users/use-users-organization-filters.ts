import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { DROPDOWN_PAGE_SIZE, organizationQueryOptions, organizationsQueryOptions, type Organization } from '../../api/organizations';
import { frLists as fr } from '../../i18n/fr-lists';
import type { UsersFiltersProps } from '../../ui/users/users-filters';

interface Options {
  api: ApiClient;
  /** The SIREN and SIRET chosen (the URL's). */
  siren: string | undefined;
  siret: string | undefined;
  onChange: (changes: { siren?: string; siret?: string }) => void;
}

const toOption = (o: Pick<Organization, 'id' | 'code' | 'name'> & { closed?: boolean }) => ({
  value: o.id,
  label: o.closed ? `${o.name} (${o.code}) – ${fr.organizationClosed}` : `${o.name} (${o.code})`,
});

/**
 * The chosen organization among those listed, else fetched by id. Whether to fetch it is decided on the list
 * without search (the first 100 may leave it out), not on a search's results, which come and go: so it is
 * fetched once, as soon as it is chosen, and stays named while later searches leave it out.
 */
function useChosen(api: ApiClient, id: string | undefined, unsearched: Organization[] | undefined, searched?: Organization[]) {
  const find = (items: Organization[] | undefined) => (id ? items?.find((o) => o.id === id) : undefined);
  const byId = useQuery({ ...organizationQueryOptions(api, id ?? ''), enabled: Boolean(id) && unsearched !== undefined && !find(unsearched) });
  return find(unsearched) ?? find(searched) ?? (id ? byId.data : undefined);
}

/**
 * The SIREN and SIRET filters of /utilisateurs (spec §2): the SIRENs, searched on the server (the text stays
 * here, the choice in the URL), and the SIRETs of the chosen SIREN (up to 100 each, spec §9).
 */
export function useUsersOrganizationFilters({ api, siren, siret, onChange }: Options) {
  const [sirenSearch, setSirenSearch] = useState('');
  const text = sirenSearch.trim();
  // The list without search decides whether the filter is offered and names an organization user's only SIREN.
  const sirens = useQuery(organizationsQueryOptions(api, { type: 'SIREN', pageSize: DROPDOWN_PAGE_SIZE }));
  // While a search runs, the options shown before stay (narrowed by the combobox as the person types): no blank list.
  const found = useQuery({ ...organizationsQueryOptions(api, { type: 'SIREN', search: text, pageSize: DROPDOWN_PAGE_SIZE }), enabled: text !== '', placeholderData: keepPreviousData });
  const sirets = useQuery({ ...organizationsQueryOptions(api, { type: 'SIRET', parentId: siren, pageSize: DROPDOWN_PAGE_SIZE }), enabled: Boolean(siren) });
  const shown = text ? (found.data ?? sirens.data) : sirens.data;
  const chosenSiren = useChosen(api, siren, sirens.data?.items, found.data?.items);
  const chosenSiret = useChosen(api, siret, sirets.data?.items);

  const sirenFilter: NonNullable<UsersFiltersProps['sirens']> = {
    options: (shown?.items ?? []).map(toOption),
    selected: chosenSiren ? toOption(chosenSiren) : null,
    loading: text ? found.isPending || found.isPlaceholderData : sirens.isPending,
    search: sirenSearch,
    onSearch: setSirenSearch,
    onChange: (value) => onChange({ siren: value || undefined, siret: undefined }),
  };
  const siretFilter: UsersFiltersProps['sirets'] = siren
    ? {
        options: (sirets.data?.items ?? []).map(toOption),
        selected: chosenSiret ? toOption(chosenSiret) : null,
        loading: sirets.isPending,
        onChange: (value) => onChange({ siret: value || undefined }),
      }
    : null;
  return { sirenFilter, siretFilter, chosenSiren, unsearchedSirens: sirens.data?.items ?? [] };
}
