// The journal as a CSV file (exportAuditEntries): its French columns, one line per entry as people read it. Pure.
import type { AuditAction } from '../../db/schema.ts';
import { frenchDateTime, type CsvColumn } from '../exports/csv.model.ts';
import type { AuditEntryDto } from './audit.service.ts';

/** Each kind of change as the journal's filter names it (src/i18n/fr-journal.ts, in the singular). */
export const JOURNAL_ACTION_LABELS: Record<AuditAction, string> = {
  'user.create': 'Création',
  'user.update': 'Modification',
  'user.roles': 'Rôles attribués ou retirés',
  'user.deactivate': 'Désactivation',
  'user.reactivate': 'Réactivation',
  'user.delete': 'Suppression',
  'user.email.request': "Changement d'adresse demandé",
  'user.email.confirm': "Changement d'adresse confirmé",
  'invitation.create': 'Demande créée',
  'invitation.approve': 'Demande approuvée',
  'invitation.reject': 'Demande rejetée',
  'invitation.cancel': 'Demande annulée',
  'invitation.expire': 'Demande expirée',
  'users.export': 'Export',
  'journal.export': 'Export',
};

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
