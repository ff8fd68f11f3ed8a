// The filters an export recorded (changes.filters of a 'users.export' or 'journal.export' entry), as people read
// them: French names, organizations by name and code, roles by label, people by name, actions by their label,
// dates as DD/MM/YYYY. Never an id, a code or JSON. Pure.
import type { JsonValue } from '../../db/schema.ts';
import { JOURNAL_ACTION_LABELS, organizationLabel, roleLabel, valueText, type JournalLookups } from './journal-text.model.ts';

const FILTER_LABELS: Record<string, string> = {
  search: 'Recherche',
  organizationId: 'Organisation',
  roleCode: 'Rôle',
  includeInactive: 'Utilisateurs inactifs inclus',
  excludeSelf: 'Sans soi-même',
  sort: 'Tri',
  order: 'Ordre',
  actorId: 'Auteur',
  userId: 'Personne concernée',
  action: 'Actions',
  from: 'Du',
  to: 'Au',
};

const SORTS: Record<string, string> = { name: 'Nom', email: 'Email', lastLoginAt: 'Dernière connexion' };
const ORDERS: Record<string, string> = { asc: 'croissant', desc: 'décroissant' };
export const PERSON_OUT_OF_REACH = 'une personne hors de votre périmètre';

/** The people and organizations a recorded filter names: looked up with the page's. */
export function filterReferences(filters: JsonValue | undefined): { userIds: string[]; organizationIds: string[] } {
  const f = filters !== null && typeof filters === 'object' && !Array.isArray(filters) ? filters : {};
  const text = (v: JsonValue | undefined) => (typeof v === 'string' ? [v] : []);
  return { userIds: [...text(f.actorId), ...text(f.userId)], organizationIds: text(f.organizationId) };
}

function filterValue(key: string, value: JsonValue, lookups: JournalLookups): string | null {
  if (typeof value !== 'string') return valueText(key, value);
  switch (key) {
    case 'search':
      return `« ${value} »`;
    case 'organizationId': {
      const organization = lookups.organizationsById.get(value);
      return organization ? organizationLabel(organization.code, organization) : 'une organisation qui n’existe plus';
    }
    case 'roleCode':
      return roleLabel(value, lookups);
    case 'actorId':
    case 'userId': {
      const person = lookups.users.get(value);
      return person?.visible ? person.name : PERSON_OUT_OF_REACH;
    }
    case 'action':
      return value
        .split(',')
        .map((a) => JOURNAL_ACTION_LABELS[a.trim() as keyof typeof JOURNAL_ACTION_LABELS] ?? a.trim())
        .join(', ');
    case 'from':
    case 'to': {
      const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      return day ? `${day[3]}/${day[2]}/${day[1]}` : value;
    }
    case 'sort':
      return SORTS[value] ?? value;
    case 'order':
      return ORDERS[value] ?? value;
    default:
      return valueText(key, value);
  }
}

/** 'Recherche « mar », Organisation : Clinique des Tilleuls (SIRET 787 441 799 00012), Rôle : Comptable'; none: null. */
export function filtersText(filters: JsonValue | undefined, lookups: JournalLookups): string | null {
  if (filters === null || typeof filters !== 'object' || Array.isArray(filters)) return valueText('filters', filters);
  const parts = Object.entries(filters).flatMap(([key, value]) => {
    const text = filterValue(key, value, lookups);
    if (text === null) return [];
    return [key === 'search' ? `${FILTER_LABELS.search} ${text}` : `${FILTER_LABELS[key] ?? key} : ${text}`];
  });
  return parts.length === 0 ? null : parts.join(', ');
}
