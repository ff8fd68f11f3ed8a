import { useEffect, useMemo, useState } from 'react';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { DROPDOWN_PAGE_SIZE, organizationsQueryOptions } from '../../api/organizations';
import { allSiretsQueryOptions, type OrganizationSummary } from '../../api/user-details';
import type { EditTabsEvent, LoadedUser } from '../../machines/edit-tabs/edit-tabs.machine';
import type { EditForm } from '../../domain/user-edit';
import type { SiretList } from '../../ui/users/edit/siret-tab';

const dataOf = <T,>(results: { data?: T }[]) => results.map((r) => r.data);
const listOf = (results: { data?: { items: OrganizationSummary[]; totalCount: number }; isPending: boolean }[]): SiretList[] =>
  results.map((r) => ({ items: r.data?.items ?? [], total: r.data?.totalCount ?? 0, loading: r.isPending }));

interface Options {
  api: ApiClient;
  active: boolean;
  canSearchSirens: boolean;
  user: LoadedUser | null;
  form: EditForm;
  initial: EditForm;
  send: (event: EditTabsEvent) => void;
}

/**
 * The organizations the edit page shows (server data, in the query cache): the SIREN search (ORG_LIST,
 * up to 100), each chosen SIREN's SIRETs with its own search (up to 100), and every SIRET of the SIRENs
 * marked 'select all', handed to the machine once loaded (spec §4).
 */
export function useEditOrganizations({ api, active, canSearchSirens, user, form, initial, send }: Options) {
  const [sirenSearch, setSirenSearch] = useState('');
  const [siretSearches, setSiretSearches] = useState<Record<string, string>>({});
  const sirens = useQuery({
    ...organizationsQueryOptions(api, { type: 'SIREN', search: sirenSearch.trim() || undefined, pageSize: DROPDOWN_PAGE_SIZE, forNewAccess: true }),
    enabled: active && canSearchSirens,
    placeholderData: keepPreviousData,
  });
  const siretLists = useQueries({
    queries: form.sirens.map((s) => ({
      ...organizationsQueryOptions(api, { type: 'SIRET', parentId: s.id, search: siretSearches[s.id]?.trim() || undefined, pageSize: DROPDOWN_PAGE_SIZE }),
      enabled: active,
      placeholderData: keepPreviousData,
    })),
    combine: listOf,
  });

  // SIRENs marked 'select all' in the form or as loaded: both take all their SIRETs.
  const expandKey = [...new Set([...form.sirens, ...initial.sirens].filter((s) => s.selectAll).map((s) => s.id))].sort().join(',');
  const expandIds = useMemo(() => (expandKey ? expandKey.split(',') : []), [expandKey]);
  const expansions = useQueries({ queries: expandIds.map((id) => ({ ...allSiretsQueryOptions(api, id), enabled: active })), combine: dataOf });
  useEffect(() => {
    if (!user) return;
    expandIds.forEach((sirenId, i) => {
      const all = expansions[i];
      // A closed SIRET takes no new role: 'select all' leaves it out.
      if (all) send({ type: 'sirets.loaded', sirenId, sirets: all.filter((o) => !o.closed).map((o) => ({ id: o.id, code: o.code, name: o.name, sirenId })) });
    });
  }, [user, expandIds, expansions, send]);

  const options = canSearchSirens ? (sirens.data?.items ?? []) : (user?.offeredSirens ?? []);
  return {
    sirenSearch,
    setSirenSearch,
    sirenOptions: options.map(({ id, code, name }) => ({ id, code, name })),
    sirenTotal: canSearchSirens ? (sirens.data?.totalCount ?? 0) : options.length,
    sirenLoading: canSearchSirens && sirens.isPending,
    siretSearches,
    setSiretSearch: (sirenId: string, text: string) => setSiretSearches((current) => ({ ...current, [sirenId]: text })),
    siretLists: Object.fromEntries(form.sirens.map((s, i) => [s.id, siretLists[i]])),
  };
}
