// An entry of the API as the journal's list shows it: its links to the person or request (when the server says
// they still exist and the caller may open them) and the filters it offers (its author, the person concerned).
import { Link } from '@tanstack/react-router';
import type { JournalEntry } from '../../api/audit';
import { formatDateTime } from '../../domain/dates';
import { frJournal } from '../../i18n/fr-journal';
import type { JournalEntryView } from '../../ui/journal/journal-entries';

const t = frJournal.entry;
const link = 'font-medium text-brand-700 hover:underline';

export interface EntryFilters {
  /** Filter the journal on this author / this person; absent: not offered (e.g. on a profile's history). */
  byAuthor?: (actorId: string, name: string) => void;
  aboutPerson?: (userId: string, name: string) => void;
}

export function journalEntryView(entry: JournalEntry, filters: EntryFilters = {}): JournalEntryView {
  const { subject } = entry;
  const actorName = entry.actorName ?? entry.actorEmail ?? t.system;
  const links = (
    <>
      {subject.type === 'user' && subject.exists && (
        <Link to="/utilisateurs/$id" params={{ id: subject.id }} className={link} aria-label={t.openProfileLabel(subject.label)}>
          {t.openProfile}
        </Link>
      )}
      {subject.type === 'invitation' && subject.exists && (
        <Link to="/admin/$id" params={{ id: subject.id }} className={link} aria-label={t.openRequestLabel(subject.label)}>
          {t.openRequest}
        </Link>
      )}
      {filters.aboutPerson && subject.type === 'user' && (
        <button type="button" className={link} onClick={() => filters.aboutPerson!(subject.id, subject.label)} aria-label={t.aboutPersonLabel(subject.label)}>
          {t.aboutPerson}
        </button>
      )}
      {filters.byAuthor && entry.actorId && (
        <button type="button" className={link} onClick={() => filters.byAuthor!(entry.actorId!, actorName)} aria-label={t.byAuthorLabel(actorName)}>
          {t.byAuthor}
        </button>
      )}
    </>
  );
  return { id: entry.id, at: formatDateTime(entry.at) ?? entry.at, iso: entry.at, sentence: entry.sentence, details: entry.details, links };
}
