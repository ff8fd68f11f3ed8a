// The journal as a CSV file (exportAuditEntries): its French columns, one line per entry as people read it. Pure.
import { frenchDateTime, type CsvColumn } from '../exports/csv.model.ts';
import type { AuditEntryDto } from './audit.service.ts';
import { JOURNAL_ACTION_LABELS } from './journal-text.model.ts';


const changesOf = (entry: AuditEntryDto) => entry.details.map((d) => `${d.label} : ${d.before ?? '(vide)'} → ${d.after ?? '(vide)'}`).join(' | ');

export const JOURNAL_EXPORT_COLUMNS: readonly CsvColumn<AuditEntryDto>[] = [
  { header: 'Date', value: (e) => frenchDateTime(e.at) },
  { header: 'Auteur', value: (e) => e.actorName ?? e.actorEmail ?? 'Le portail' },
  { header: 'Action', value: (e) => JOURNAL_ACTION_LABELS[e.action] },
  { header: 'Concerné', value: (e) => e.subject.label },
  { header: 'Organisation', value: (e) => (e.organization ? `${e.organization.name} (${e.organization.code})` : '') },
  { header: 'Détail', value: (e) => e.sentence },
  { header: 'Modifications', value: changesOf },
];
