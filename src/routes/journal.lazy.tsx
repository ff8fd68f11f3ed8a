import { lazy, Suspense } from 'react';
import { createLazyRoute } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Guarded, USER_LIST_REQUIRED } from '../features/session/guarded';
import { useUsersOrganizationFilters } from '../features/users/use-users-organization-filters';
import { journalEntryView } from '../features/journal/journal-entry-view';
import { journalQueryOptions } from '../api/audit';
import { ApiFailure } from '../api/client';
import { actionsOf, isPeriodValid } from '../domain/journal';
import { compactPageItems, pageRange } from '../domain/pagination';
import { useDocumentTitle } from '../lib/use-document-title';
import { useSession } from '../session';
import { hasPermission, isBackOffice } from '../../rules/permissions';
import { JournalEntries } from '../ui/journal/journal-entries';
import { JournalFilters } from '../ui/journal/journal-filters';
import { JournalPage } from '../ui/journal/journal-page';
import { frJournal } from '../i18n/fr-journal';
import type { JournalSearch } from './journal';

// The export's button loads after the journal (as the users list's).
const JournalCsvExport = lazy(() => import('../features/csv-export/journal-csv-export'));

/** The free search waits 500 ms, as the users list's. */
const SEARCH_DEBOUNCE_MS = 500;
const t = frJournal;

function JournalScreen() {
  const { api } = Route.useRouteContext();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const profile = useSession((s) => s.context.profile);
  useDocumentTitle(t.documentTitle);
  const update = (changes: Partial<JournalSearch>) => void navigate({ search: (prev) => ({ ...prev, ...changes, page: changes.page ?? 1 }) });
  const orgs = useUsersOrganizationFilters({ api, siren: search.siren, siret: search.siret, onChange: (changes) => update(changes) });
  const periodValid = isPeriodValid(search.from, search.to);
  const filters = {
    from: search.from,
    to: search.to,
    action: actionsOf(search.action),
    actorId: search.actorId,
    userId: search.userId,
    organizationId: search.siret ?? search.siren,
    search: search.search.trim() || undefined,
  };
  const query = useQuery({
    ...journalQueryOptions(api, { ...filters, page: search.page, pageSize: search.pageSize }),
    // An impossible period is said on the page; the server is not asked.
    enabled: periodValid,
  });
  const data = query.data;
  const items = data?.items ?? [];
  const range = data ? pageRange(data.page, data.pageSize, data.total) : null;
  const totalPages = data?.totalPages ?? 0;
  // The chips name the author or person from the entries shown: all of them are by that author, about that person.
  const actorName = search.actorId ? (items.find((e) => e.actorId === search.actorId)?.actorName ?? t.filters.someone) : null;
  const personName = search.userId ? (items.find((e) => e.subject.type === 'user' && e.subject.id === search.userId)?.subject.label ?? t.filters.someone) : null;
  const chips = [
    ...(actorName ? [{ key: 'actor', label: t.filters.author(actorName), onRemove: () => update({ actorId: undefined }) }] : []),
    ...(personName ? [{ key: 'person', label: t.filters.person(personName), onRemove: () => update({ userId: undefined }) }] : []),
  ];
  const showSirenFilter = profile ? isBackOffice(profile) || (hasPermission(profile, 'USER_LIST') && orgs.unsearchedSirens.length > 0) : false;
  const error = query.isError ? (query.error instanceof ApiFailure && query.error.body?.message ? query.error.body.message : t.empty) : null;

  return (
    <JournalPage
      actions={
        periodValid && (
          <Suspense fallback={null}>
            <JournalCsvExport api={api} filters={filters} />
          </Suspense>
        )
      }
      filters={
        <JournalFilters
          period={{ from: search.from ?? '', to: search.to ?? '', invalid: !periodValid, onChange: (changes) => update({ from: changes.from ?? search.from, to: changes.to ?? search.to, ...normalizedDays(changes) }) }}
          action={{ value: search.action ?? '', onChange: (value) => update({ action: value || undefined }) }}
          sirens={showSirenFilter ? orgs.sirenFilter : null}
          sirets={orgs.siretFilter}
          search={{ value: search.search, delayMs: SEARCH_DEBOUNCE_MS, onSearch: (text) => update({ search: text }) }}
          chips={chips}
        />
      }
      loading={periodValid && query.isPending}
      error={error}
      empty={items.length === 0}
      entries={
        <JournalEntries
          entries={items.map((entry) =>
            journalEntryView(entry, {
              byAuthor: (actorId) => update({ actorId }),
              aboutPerson: (userId) => update({ userId }),
            }),
          )}
          busy={query.isPlaceholderData}
        />
      }
      summary={!periodValid || query.isPending ? '' : range && data ? t.range(range.from, range.to, data.total) : t.none}
      pageSize={search.pageSize}
      onPageSize={(pageSize) => update({ pageSize })}
      pagination={{ page: search.page, totalPages, items: compactPageItems(search.page, totalPages), onPage: (page) => update({ page }) }}
    />
  );
}

/** An emptied date input clears its bound (the URL drops it). */
function normalizedDays(changes: { from?: string; to?: string }): Partial<JournalSearch> {
  const out: Partial<JournalSearch> = {};
  if (changes.from !== undefined) out.from = changes.from || undefined;
  if (changes.to !== undefined) out.to = changes.to || undefined;
  return out;
}

// Whoever may list users reads the journal of their scope (the server decides what each entry shows).
export const Route = createLazyRoute('/shell/journal')({
  component: () => (
    <Guarded requirement={USER_LIST_REQUIRED}>
      <JournalScreen />
    </Guarded>
  ),
});
