// A journal entry as people read it (OpenAPI AuditEntry's sentence, actorName, subject, organization, details):
// one French template per action, names and labels instead of ids and JSON. Pure: what it needs of the
// database comes looked up once per page (JournalLookups).
import type { AuditAction, AuditEntityType, JsonValue } from '../../db/schema.ts';
import { detailText, journalDetails, roleChangeOf, rolesGivenAndTaken, type JournalDetail } from './journal-details.model.ts';
import { formatCount, frenchLongDate, organizationLabel, roleLabel, roleOnOrganization, type JournalLookups, type JournalOrganizationRef } from './journal-text.model.ts';

/** An entry as stored (audit_log), with the organizations it concerns. */
export interface JournalRow {
  id: number;
  at: Date;
  actorId: string | null;
  actorEmail: string | null;
  /** The author's name when the entry was written. */
  actorName: string | null;
  action: AuditAction;
  entityType: AuditEntityType;
  entityId: string;
  organizationId: string | null;
  /** The person's name (or the invitee's e-mail) when the entry was written. */
  subjectName: string | null;
  changes: Record<string, JsonValue>;
  /** Every organization the entry concerns (audit_log_organizations); the filed-under one when not read. */
  organizationIds: readonly string[];
}

export interface JournalSubject {
  type: AuditEntityType;
  id: string;
  label: string;
  exists: boolean;
}

export interface ReadableEntry {
  sentence: string;
  actorName: string | null;
  subject: JournalSubject;
  organization: JournalOrganizationRef | null;
  details: JournalDetail[];
}

const EXPORTED: Record<string, [string, string]> = { users: ['utilisateur', 'utilisateurs'], journal: ['entrée du journal', 'entrées du journal'] };
const EXPORT_LABELS: Record<string, string> = { users: 'la liste des utilisateurs', journal: 'le journal des modifications' };

const text = (value: JsonValue | undefined): string | null => (typeof value === 'string' && value.length > 0 ? value : null);
const after = (changes: Record<string, JsonValue>, field: string): JsonValue | undefined => {
  const value = changes[field];
  return value !== null && typeof value === 'object' && !Array.isArray(value) && 'after' in value ? value.after : value;
};

function subjectOf(row: JournalRow, lookups: JournalLookups): JournalSubject {
  if (row.entityType === 'user') {
    const user = lookups.users.get(row.entityId);
    const recordedEmail = text(after(row.changes, 'email')) ?? text(row.changes.email && (row.changes.email as { before?: JsonValue }).before);
    const label = user?.name ?? row.subjectName ?? user?.email ?? recordedEmail ?? 'un utilisateur supprimé';
    return { type: 'user', id: row.entityId, label, exists: user?.visible ?? false };
  }
  if (row.entityType === 'invitation') {
    const email = row.subjectName ?? text(row.changes.inviteeEmail);
    return { type: 'invitation', id: row.entityId, label: `demande n° ${row.entityId}${email ? ` de ${email}` : ''}`, exists: lookups.invitations.has(row.entityId) };
  }
  return { type: 'export', id: row.entityId, label: EXPORT_LABELS[row.entityId] ?? row.entityId, exists: false };
}

/** The organization the entry is filed under: the recorded one if the caller may see it, else the first of the entry's within their scope. */
function organizationOf(row: JournalRow, lookups: JournalLookups): JournalOrganizationRef | null {
  const candidates = [row.organizationId, ...row.organizationIds].filter((id): id is string => id !== null);
  for (const id of candidates) {
    const organization = lookups.organizationsById.get(id);
    if (organization && (lookups.backOffice || lookups.inScope(id))) return organization;
  }
  return null;
}

function rolesSentence(author: string, person: string, row: JournalRow, lookups: JournalLookups): string {
  const change = roleChangeOf(row.changes, lookups);
  const { given, taken } = change ? rolesGivenAndTaken(change) : { given: [], taken: [] };
  if (given.length === 1 && taken.length === 0) return `${author} a attribué le rôle ${roleOnOrganization(given[0]!, lookups, person)}.`;
  if (taken.length === 1 && given.length === 0) return `${author} a retiré le rôle ${roleOnOrganization(taken[0]!, lookups, person)}.`;
  const parts = [
    given.length > 0 ? `attribué ${given.map((r) => roleOnOrganization(r, lookups)).join(', ')}` : null,
    taken.length > 0 ? `retiré ${taken.map((r) => roleOnOrganization(r, lookups)).join(', ')}` : null,
  ].filter((p) => p !== null);
  return parts.length === 0 ? `${author} a modifié les rôles de ${person}.` : `${author} a modifié les rôles de ${person} : ${parts.join(' ; ')}.`;
}

function sentenceOf(row: JournalRow, author: string, subject: JournalSubject, details: JournalDetail[], lookups: JournalLookups): string {
  const person = subject.label;
  const changes = row.changes;
  switch (row.action) {
    case 'user.create': {
      const invitation = changes.invitationId;
      return invitation === undefined ? `${author} a créé l'utilisateur ${person}.` : `${author} a créé l'utilisateur ${person} en approuvant la demande n° ${String(invitation)}.`;
    }
    case 'user.update': {
      const fields = details.filter((d) => d.field !== 'roles');
      return fields.length === 0 ? `${author} a modifié ${person}.` : `${author} a modifié ${person} : ${fields.map(detailText).join(', ')}.`;
    }
    case 'user.roles':
      return rolesSentence(author, person, row, lookups);
    case 'user.deactivate':
      return `${author} a désactivé ${person}.`;
    case 'user.reactivate':
      return `${author} a réactivé ${person}.`;
    case 'user.delete':
      return `${author} a supprimé ${person}.`;
    case 'user.email.request': {
      const address = text(after(changes, 'pendingEmail'));
      return `${author} a demandé le changement de l'adresse e-mail de ${person}${address ? ` pour « ${address} »` : ''}.`;
    }
    case 'user.email.confirm': {
      const address = text(after(changes, 'email'));
      const whose = row.actorId !== null && row.actorId === row.entityId ? 'sa nouvelle adresse e-mail' : `la nouvelle adresse e-mail de ${person}`;
      return `${author} a confirmé ${whose}${address ? ` « ${address} »` : ''}.`;
    }
    case 'user.invitation.resend':
      return `${author} a renvoyé l'invitation à ${person}.`;
    case 'user.dormancy.end': {
      // By the person themselves, whose sign-in ended the warning.
      const warned = changes.dormancyWarnedAt;
      const day = frenchLongDate(warned !== null && typeof warned === 'object' && !Array.isArray(warned) ? warned.before : undefined);
      return `${author} a levé l'avertissement d'inactivité${day ? ` du ${day}` : ''} en se connectant.`;
    }
    case 'invitation.create': {
      const role = text(changes.roleCode);
      const code = text(changes.organizationCode);
      const what = role && code ? ` : rôle ${roleLabel(role, lookups)} sur ${organizationLabel(code, lookups.organizationsByCode.get(code))}` : '';
      return `${author} a créé la ${person}${what}.`;
    }
    case 'invitation.approve':
      return `${author} a approuvé la ${person}.`;
    case 'invitation.reject': {
      const reason = text(changes.rejectionReason);
      return `${author} a rejeté la ${person}${reason ? ` : « ${reason} »` : ''}.`;
    }
    case 'invitation.cancel': {
      const reason = text(changes.cancellationReason);
      return `${author} a annulé la ${person}${reason ? ` : « ${reason} »` : ''}.`;
    }
    case 'invitation.expire': {
      const days = changes.expiryDays;
      return `La ${person} a expiré${typeof days === 'number' ? ` après ${formatCount(days)} jours sans décision` : ''}.`;
    }
    case 'users.export':
    case 'journal.export': {
      const rows = after(changes, 'rows') ?? after(changes, 'count');
      const n = typeof rows === 'number' ? rows : Number(rows);
      const [one, many] = EXPORTED[row.action === 'users.export' ? 'users' : 'journal']!;
      return Number.isFinite(n) ? `${author} a exporté ${formatCount(n)} ${Math.abs(n) <= 1 ? one : many}.` : `${author} a exporté ${subject.label}.`;
    }
    case 'personal-data.exported':
      return row.actorId !== null && row.actorId === row.entityId ? `${author} a téléchargé ses données personnelles.` : `${author} a téléchargé les données personnelles de ${person}.`;
  }
}

/** An entry as people read it. An organization caller reads no role outside their scope, and no `changes` (the handler empties it). */
export function readableEntry(row: JournalRow, lookups: JournalLookups): ReadableEntry {
  const current = row.actorId ? lookups.users.get(row.actorId) : undefined;
  const actorName = current?.name ?? row.actorName ?? row.actorEmail ?? null;
  const subject = subjectOf(row, lookups);
  const details = journalDetails(row.changes, lookups);
  return { sentence: sentenceOf(row, actorName ?? 'Le portail', subject, details, lookups), actorName, subject, organization: organizationOf(row, lookups), details };
}
