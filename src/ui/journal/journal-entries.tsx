// The journal's entries as people read them: the date, the server's French sentence, and each change before → after.
import type { ReactNode } from 'react';
import { frJournal } from '../../i18n/fr-journal';

const t = frJournal.entry;

export interface JournalEntryView {
  id: number;
  /** The date and time, already formatted (Europe/Paris). */
  at: string;
  /** The machine-readable date of <time>. */
  iso: string;
  sentence: string;
  details: { field: string; label: string; before: string | null; after: string | null }[];
  /** Links and filters the entry offers, built by the screen (router links). */
  links: ReactNode;
}

function Value({ value }: { value: string | null }) {
  return value === null || value === '' ? <span className="text-slate-500 italic">{t.empty}</span> : <span className="break-words">« {value} »</span>;
}

export function JournalEntries({ entries, busy = false }: { entries: JournalEntryView[]; busy?: boolean }) {
  return (
    <ol className={`divide-y divide-slate-200 rounded-xl bg-white shadow-sm ${busy ? 'opacity-60' : ''}`} aria-busy={busy}>
      {entries.map((entry) => (
        <li key={entry.id} className="space-y-2 p-4">
          <p className="text-sm text-slate-600">
            <time dateTime={entry.iso}>{entry.at}</time>
          </p>
          <p className="break-words text-slate-900">{entry.sentence}</p>
          {entry.details.length > 0 && (
            <dl aria-label={t.details} className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
              {entry.details.map((detail) => (
                <div key={detail.field} className="contents">
                  <dt className="font-medium text-slate-700">{detail.label}</dt>
                  <dd className="text-slate-800">
                    <Value value={detail.before} /> <span aria-hidden="true">{t.arrow}</span>
                    <span className="sr-only">devient</span> <Value value={detail.after} />
                  </dd>
                </div>
              ))}
            </dl>
          )}
          {entry.links && <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">{entry.links}</div>}
        </li>
      ))}
    </ol>
  );
}
