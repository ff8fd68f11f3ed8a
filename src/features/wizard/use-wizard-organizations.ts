import { useEffect, useState } from 'react';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { organizationsQueryOptions } from '../../api/organizations';
import { allSiretsQueryOptions, type OrganizationSummary } from '../../api/user-details';
import { matchingSirens, matchingSirets, SELECT_ALL_LIMIT, WIZARD_SIREN_PAGE_SIZE, type SirenOption, type WizardDraft } from '../../domain/user-create';
import type { WizardEvent } from '../../machines/creation-wizard/creation-wizard.machine';
import type { SiretList } from '../../ui/users/edit/siret-tab';

interface Options {
  api: ApiClient;
  /** The SIRENs offered to an organization user (their member-administrator SIRENs); null: searched on the server. */
  offeredSirens: SirenOption[] | null;
  /** Admin mode: one SIREN by radio, no 'select all'. */
  single: boolean;
  draft: WizardDraft;
  send: (event: WizardEvent) => void;
}

const toOption = ({ id, code, name }: OrganizationSummary): SirenOption => ({ id, code, name });

/**
 * The organizations the wizard shows (server data, in the query cache): a page of 10 SIRENs for the
 * search, every result of the search for 'select all' (up to 100), and all the SIRETs of each chosen
 * SIREN, handed to the machine once loaded (a locked SIREN takes them all).
 */
export function useWizardOrganizations({ api, offeredSirens, single, draft, send }: Options) {
  const [sirenSearch, setSirenSearch] = useState('');
  const [page, setPage] = useState(1);
  const [siretSearches, setSiretSearches] = useState<Record<string, string>>({});
  const search = sirenSearch.trim() || undefined;
  const remote = offeredSirens === null;

  const sirenPage = useQuery({
    ...organizationsQueryOptions(api, { type: 'SIREN', search, page, pageSize: WIZARD_SIREN_PAGE_SIZE, forNewAccess: true }),
    enabled: remote,
    placeholderData: keepPreviousData,
  });
  const remoteTotal = sirenPage.data?.totalCount ?? null;
  const everyResult = useQuery({
    ...organizationsQueryOptions(api, { type: 'SIREN', search, pageSize: SELECT_ALL_LIMIT, forNewAccess: true }),
    enabled: remote && !single && remoteTotal !== null && remoteTotal <= SELECT_ALL_LIMIT,
  });

  const local = matchingSirens(offeredSirens ?? [], sirenSearch);
  const totalPages = remote ? (sirenPage.data?.totalPages ?? 0) : Math.ceil(local.length / WIZARD_SIREN_PAGE_SIZE);
  const options = remote ? (sirenPage.data?.items ?? []).map(toOption) : local.slice((page - 1) * WIZARD_SIREN_PAGE_SIZE, page * WIZARD_SIREN_PAGE_SIZE);
  const selectAll = single
    ? null
    : remote
      ? { results: remoteTotal !== null && remoteTotal > SELECT_ALL_LIMIT ? [] : everyResult.data ? everyResult.data.items.map(toOption) : null, tooMany: remoteTotal !== null && remoteTotal > SELECT_ALL_LIMIT ? SELECT_ALL_LIMIT : null }
      : { results: local, tooMany: null };

  const siretsOf = useQueries({ queries: draft.sirens.map((s) => allSiretsQueryOptions(api, s.id)) });
  // Each chosen SIREN's SIRETs, once loaded, go to the machine: a locked SIREN takes them all. A closed one is
  // shown ('Fermé') but never handed to the machine: the wizard only gives new roles, which it cannot take.
  const loadedKey = draft.sirens.map((s, i) => `${s.id}:${siretsOf[i]?.dataUpdatedAt ?? 0}`).join(',');
  useEffect(() => {
    draft.sirens.forEach((siren, i) => {
      const all = siretsOf[i]?.data;
      if (all) send({ type: 'sirets.loaded', sirenId: siren.id, sirets: all.filter((o) => !o.closed).map((o) => ({ id: o.id, code: o.code, name: o.name, sirenId: siren.id })) });
    });
    // loadedKey stands for the SIRENs and their data.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadedKey, send]);

  const siretLists: Record<string, SiretList> = Object.fromEntries(
    draft.sirens.map((siren, i) => {
      const all = siretsOf[i]?.data ?? [];
      return [siren.id, { items: matchingSirets(all, siretSearches[siren.id] ?? ''), total: all.filter((o) => !o.closed).length, loading: siretsOf[i]?.isPending ?? true }];
    }),
  );

  return {
    sirens: {
      search: sirenSearch,
      onSearch: (text: string) => {
        setSirenSearch(text);
        setPage(1);
      },
      options,
      loading: remote && sirenPage.isPending,
      pagination: { page, totalPages, onPage: setPage },
      selectAll,
    },
    sirets: {
      lists: siretLists,
      searches: siretSearches,
      onSearch: (sirenId: string, text: string) => setSiretSearches((current) => ({ ...current, [sirenId]: text })),
    },
  };
}
