// A person's data on request (issue 23, OpenAPI PersonalData): what was read, put in the contract's stable shape,
// with every link of the e-mails removed; and the file's name. Pure: rows in, a document out.
import { roleDisplayLabel } from '../../../rules/roles.ts';
import type { ReadableEntry } from '../audit/journal-sentences.model.ts';
import { JOURNAL_ACTION_LABELS } from '../audit/journal-text.model.ts';
import type { AuditAction } from '../../db/schema.ts';
import { parisDay } from '../exports/csv.model.ts';
import type { PersonEmailRow, PersonRequestRow, PersonRoleRow, PersonRow } from './users-personal-data.repository.ts';

/** What replaces each link of an e-mail: a set-up or confirmation link (its token) never leaves the portal. */
export const LINK_REMOVED = '[lien retiré]';

export type PersonalDataFormat = 'json' | 'html';

/** A journal entry about the person, as the journal reads it. */
export interface PersonJournalEntry extends Pick<ReadableEntry, 'sentence' | 'actorName' | 'details'> {
  at: Date;
  action: AuditAction;
}

export interface PersonalDataSource {
  person: PersonRow;
  roles: PersonRoleRow[];
  permissions: string[];
  requests: { made: PersonRequestRow[]; received: PersonRequestRow[] };
  journal: PersonJournalEntry[];
  emails: PersonEmailRow[];
}

const iso = (moment: Date | string | null): string | null => (moment === null ? null : new Date(moment).toISOString());

/**
 * Every link (http, https, or a bare www. address) of an e-mail's text replaced by '[lien retiré]', and any
 * `token=` left over with it: the set-up and confirmation links carry their token in the URL.
 */
export function withoutLinks(text: string): string {
  return text.replace(/\b(?:https?:\/\/|www\.)[^\s<>"]+/gi, LINK_REMOVED).replace(/\btoken=[^\s&]+/gi, LINK_REMOVED);
}

function request(row: PersonRequestRow) {
  return {
    id: row.id,
    type: row.invitation_type,
    status: row.status,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    roleCode: row.role_code,
    roleLabel: roleDisplayLabel(row.role_name),
    inviteeEmail: row.invitee_email,
    requestedBy: row.sender_email,
    createdAt: iso(row.created_at)!,
    processedAt: iso(row.processed_at),
    decidedBy: row.validator_email,
    rejectionReason: row.rejection_reason,
    cancelledBy: row.cancelled_by_email,
    cancellationReason: row.cancellation_reason,
  };
}

/** The document (OpenAPI PersonalData): its fields are only ever added to, never renamed. */
export function personalDataDocument(source: PersonalDataSource, exportedAt: Date) {
  const p = source.person;
  return {
    exportedAt: exportedAt.toISOString(),
    person: {
      id: p.id,
      email: p.email,
      pendingEmail: p.pending_email,
      firstName: p.first_name,
      lastName: p.last_name,
      jobTitle: p.job_title,
      phoneNumber: p.phone_number,
      mobilePhone: p.mobile_phone,
      street: p.street,
      postalCode: p.postal_code,
      city: p.city,
      metadata: p.metadata,
      userType: p.user_type,
      isActive: p.is_active,
      createdAt: iso(p.created_at)!,
      updatedAt: iso(p.updated_at)!,
    },
    signIn: { createdAt: iso(p.created_at)!, lastLoginAt: iso(p.last_login_at), invitationSentAt: iso(p.invitation_sent_at) },
    organizations: source.roles.map((r) => ({
      organizationCode: r.organization_code,
      organizationName: r.organization_name,
      organizationType: r.organization_type,
      roleCode: r.role_code,
      roleLabel: roleDisplayLabel(r.role_name),
      inheritsToChildren: r.inherits_to_children,
      since: iso(r.created_at)!,
    })),
    permissions: source.permissions,
    requestsMade: source.requests.made.map(request),
    requestsReceived: source.requests.received.map(request),
    journal: source.journal.map((e) => ({
      at: e.at.toISOString(),
      action: e.action,
      actionLabel: JOURNAL_ACTION_LABELS[e.action],
      actorName: e.actorName,
      sentence: e.sentence,
      details: e.details,
    })),
    emails: source.emails.map((m) => ({
      createdAt: iso(m.created_at)!,
      sentAt: iso(m.sent_at),
      recipient: m.recipient,
      subject: withoutLinks(m.subject),
      status: m.status,
      body: withoutLinks(m.body),
    })),
  };
}

export type PersonalDataDocument = ReturnType<typeof personalDataDocument>;

/** 'Zoé Bonnet', 2026-11-27 → 'donnees-personnelles-bonnet-zoe-2026-11-27.html': letters, digits and dashes only. */
export function personalDataFileName(person: Pick<PersonRow, 'first_name' | 'last_name'>, format: PersonalDataFormat, now: Date): string {
  const name = `${person.last_name} ${person.first_name}`
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `donnees-personnelles-${name || 'personne'}-${parisDay(now)}.${format}`;
}
