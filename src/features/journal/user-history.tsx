// A profile's 'Historique': that person's entries of the journal, newest first, paged (issue 21).
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { journalQueryOptions } from '../../api/audit';
import { compactPageItems } from '../../domain/pagination';
import { frJournal } from '../../i18n/fr-journal';
import { JournalEntries } from '../../ui/journal/journal-entries';
import { Pagination } from '../../ui/pagination';
import { Spinner } from '../../ui/spinner';
import { journalEntryView } from './journal-entry-view';

const t = frJournal.history;
const PAGE_SIZE = 10;

export function UserHistory({ api, userId }: { api: ApiClient; userId: string }) {
  const [page, setPage] = useState(1);
  const query = useQuery(journalQueryOptions(api, { userId, page, pageSize: PAGE_SIZE }));
  const data = query.data;
  const totalPages = data?.totalPages ?? 0;
  return (
    <section aria-labelledby="user-history-title" className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="user-history-title" className="text-lg font-semibold text-slate-900">
          {t.title}
        </h2>
        <Link to="/journal" search={{ userId }} className="text-sm font-medium text-brand-700 hover:underline">
          {t.all}
        </Link>
      </div>
      {query.isPending ? (
        <Spinner label={t.loading} />
      ) : query.isError ? (
        <p role="alert" className="text-red-800">
          {t.failed}
        </p>
      ) : data!.items.length === 0 ? (
        <p className="text-slate-600">{t.empty}</p>
      ) : (
        <>
          <JournalEntries entries={data!.items.map((entry) => journalEntryView(entry))} busy={query.isPlaceholderData} />
          {totalPages > 1 && <Pagination page={page} totalPages={totalPages} items={compactPageItems(page, totalPages)} onPage={setPage} />}
        </>
      )}
    </section>
  );
}
