// How the journal writes what people read: organizations by name and code, roles by their display label,
// field labels and values in French. Pure: journal-sentences.model.ts and journal-details.model.ts use it.
import { roleDisplayLabel } from '../../../rules/roles.ts';
import type { AuditAction } from '../../db/schema.ts';

export interface JournalOrganizationRef {
  id: string;
  code: string;
  name: string;
  type: 'SIREN' | 'SIRET';
}

/** What a page of entries needs to be read (looked up once per page: journal-lookups.repository.ts). */
export interface JournalLookups {
  /** Users as they are now (authors and persons concerned): names, e-mail, whether the caller may open them. */
  users: ReadonlyMap<string, { name: string; email: string; visible: boolean }>;
  /** Requests that still exist and that the caller may open. */
  invitations: ReadonlySet<string>;
  organizationsById: ReadonlyMap<string, JournalOrganizationRef>;
  organizationsByCode: ReadonlyMap<string, JournalOrganizationRef>;
  /** Role names by code (their display label is drawn from it). */
  roleNames: ReadonlyMap<string, string>;
  /** Whether an organization lies within the caller's scope (USER_LIST); always for the back office. */
  inScope: (organizationId: string) => boolean;
  /** Back office: every field and `changes` as recorded; an organization caller: roles within its scope only. */
  backOffice: boolean;
}

/** '787441799' → '787 441 799'; '78744179900012' → '787 441 799 00012'; anything else as it is. */
export function formatOrganizationCode(code: string): string {
  if (/^\d{9}$/.test(code)) return `${code.slice(0, 3)} ${code.slice(3, 6)} ${code.slice(6)}`;
  if (/^\d{14}$/.test(code)) return `${code.slice(0, 3)} ${code.slice(3, 6)} ${code.slice(6, 9)} ${code.slice(9)}`;
  return code;
}

/** 'Clinique des Tilleuls (SIRET 787 441 799 00012)'; an organization no longer known: 'SIRET 787 441 799 00012'. */
export function organizationLabel(code: string, organization: JournalOrganizationRef | undefined): string {
  const type = organization?.type ?? (code.length === 14 ? 'SIRET' : 'SIREN');
  const coded = `${type} ${formatOrganizationCode(code)}`;
  return organization ? `${organization.name} (${coded})` : coded;
}

export function roleLabel(code: string, lookups: Pick<JournalLookups, 'roleNames'>): string {
  const name = lookups.roleNames.get(code);
  return name ? roleDisplayLabel(name) : code;
}

/** 1234 → '1 234' (the journal's sentences and the SIREN/SIRET group digits alike). */
export function formatCount(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

const PARIS_LONG_DATE = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', day: 'numeric', month: 'long', year: 'numeric' });

/** '2026-10-12T07:30:00Z' → '12 octobre 2026' (the day in Europe/Paris; the first of a month '1er'); not a date: null. */
export function frenchLongDate(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const moment = new Date(value);
  if (Number.isNaN(moment.getTime())) return null;
  const parts = Object.fromEntries(PARIS_LONG_DATE.formatToParts(moment).map((p) => [p.type, p.value]));
  return `${parts.day === '1' ? '1er' : parts.day} ${parts.month} ${parts.year}`;
}

/** Each field's French label, in the order the profile shows them (the journal's details read in it). */
export const FIELD_LABELS: Record<string, string> = {
  firstName: 'Prénom',
  lastName: 'Nom',
  email: 'Email',
  pendingEmail: 'Adresse en attente',
  jobTitle: 'Fonction',
  phoneNumber: 'Téléphone',
  mobilePhone: 'Portable',
  street: 'Adresse',
  postalCode: 'Code postal',
  city: 'Ville',
  metadata: 'Informations complémentaires',
  isActive: 'Statut',
  assignments: 'Rôles',
  roles: 'Rôles',
  added: 'Rôles',
  invitationSentAt: 'Invitation envoyée le',
  dormancyWarnedAt: "Avertissement d'inactivité",
  userType: 'Type de compte',
  permissions: 'Permissions',
  invitationId: 'Demande',
  inviteeEmail: 'Email de la personne invitée',
  invitationType: 'Type de demande',
  organizationCode: 'Organisation',
  roleCode: 'Rôle',
  status: 'Statut de la demande',
  rejectionReason: 'Motif du refus',
  userCreated: 'Compte créé',
  rows: 'Lignes exportées',
  filters: 'Filtres',
  format: 'Format',
};

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
  'user.invitation.resend': 'Invitation renvoyée',
  'user.dormancy.end': "Fin d'un avertissement d'inactivité",
  'invitation.create': 'Demande créée',
  'invitation.approve': 'Demande approuvée',
  'invitation.reject': 'Demande rejetée',
  'invitation.cancel': 'Demande annulée',
  'invitation.expire': 'Demande expirée',
  'users.export': 'Export',
  'journal.export': 'Export',
  'personal-data.exported': 'Données personnelles téléchargées',
};

const VALUE_LABELS: Record<string, Record<string, string>> = {
  isActive: { true: 'Actif', false: 'Inactif' },
  userType: { BACKOFFICE: 'Back-office', ORGANIZATION: 'Organisation' },
  invitationType: { NEW_ADMIN: 'Nouvel administrateur', ROLE_ASSIGNMENT: 'Attribution de rôle' },
  status: { PENDING: 'En attente', APPROVED: 'Approuvée', REJECTED: 'Refusée' },
  userCreated: { true: 'Oui', false: 'Non' },
};

/** A recorded value as people read it: labels for known codes, lists joined, objects as 'clé : valeur'; null/empty: null. */
export function valueText(field: string, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const labelled = VALUE_LABELS[field]?.[String(value)];
  if (labelled) return labelled;
  if (typeof value === 'boolean') return value ? 'Oui' : 'Non';
  if (typeof value === 'number') return formatCount(value);
  if (Array.isArray(value)) return value.length === 0 ? null : value.map((v) => valueText(field, v) ?? '').join(', ');
  if (typeof value === 'object') {
    const parts = Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => {
      const text = valueText(k, v);
      return text === null ? [] : [`${FIELD_LABELS[k] ?? k} : ${text}`];
    });
    return parts.length === 0 ? null : parts.join(', ');
  }
  return String(value);
}

/** A role held somewhere, as an entry records it: '78744179900012 COMPTABLE' (a '+' marks inheritsToChildren), or a grant. */
export interface RecordedRole {
  organizationCode: string;
  organizationId?: string | undefined;
  roleCode: string;
  inheritsToChildren: boolean;
}

export function parseRecordedRole(value: unknown): RecordedRole | null {
  if (typeof value === 'string') {
    const [organizationCode, roleCode, plus] = value.split(' ');
    return organizationCode && roleCode ? { organizationCode, roleCode, inheritsToChildren: plus === '+' } : null;
  }
  if (value && typeof value === 'object') {
    const grant = value as Record<string, unknown>;
    if (typeof grant.organizationCode === 'string' && typeof grant.roleCode === 'string') {
      const organizationId = typeof grant.organizationId === 'string' ? grant.organizationId : undefined;
      return { organizationCode: grant.organizationCode, organizationId, roleCode: grant.roleCode, inheritsToChildren: grant.inheritsToChildren === true };
    }
  }
  return null;
}

export function recordedRoles(value: unknown): RecordedRole[] {
  return Array.isArray(value) ? value.map(parseRecordedRole).filter((r): r is RecordedRole => r !== null) : [];
}

export function organizationOfRole(role: RecordedRole, lookups: JournalLookups): JournalOrganizationRef | undefined {
  return (role.organizationId ? lookups.organizationsById.get(role.organizationId) : undefined) ?? lookups.organizationsByCode.get(role.organizationCode);
}

/** Whether the caller may read this role: the back office always; others when its organization is within their scope. */
export function roleInScope(role: RecordedRole, lookups: JournalLookups): boolean {
  if (lookups.backOffice) return true;
  const organization = organizationOfRole(role, lookups);
  return organization !== undefined && lookups.inScope(organization.id);
}

/** 'Comptable sur Clinique des Tilleuls (SIRET 787 441 799 00012)', or with a person: 'Comptable à Noël Faure sur …'. */
export function roleOnOrganization(role: RecordedRole, lookups: JournalLookups, person?: string): string {
  const where = organizationLabel(role.organizationCode, organizationOfRole(role, lookups));
  return `${roleLabel(role.roleCode, lookups)}${person ? ` à ${person}` : ''} sur ${where}${role.inheritsToChildren ? ' et ses établissements' : ''}`;
}

export const roleKey = (role: RecordedRole) => `${role.organizationCode} ${role.roleCode}`;
