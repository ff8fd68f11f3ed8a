// Each changed field of a journal entry, with its French label and its values as people read them (OpenAPI
// JournalDetail). Roles read by their display label on their organization's name and code; an organization
// caller reads only the roles within its scope. Pure.
import type { JsonValue } from '../../db/schema.ts';
import { frenchDateTime } from '../exports/csv.model.ts';
import {
  FIELD_LABELS,
  organizationLabel,
  recordedRoles,
  roleInScope,
  roleKey,
  roleLabel,
  roleOnOrganization,
  valueText,
  type JournalLookups,
  type RecordedRole,
} from './journal-text.model.ts';
import { filtersText } from './journal-filters.model.ts';

export interface JournalDetail {
  field: string;
  label: string;
  before: string | null;
  after: string | null;
}

/** The roles an entry records before and after the change, each a list of what the caller may read. */
export interface RoleChange {
  before: RecordedRole[];
  after: RecordedRole[];
}

const ROLE_FIELDS = new Set(['assignments', 'roles', 'added']);
/** Raw ids, never shown: the person concerned is the entry's subject. */
const HIDDEN_FIELDS = new Set(['userId']);

function isBeforeAfter(value: JsonValue | undefined): value is { before?: JsonValue; after?: JsonValue } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && ('before' in value || 'after' in value) && Object.keys(value).every((k) => k === 'before' || k === 'after');
}

/** The roles of an entry (assignments before/after, a creation's roles, an approval's added role), within the caller's reach. */
export function roleChangeOf(changes: Record<string, JsonValue>, lookups: JournalLookups): RoleChange | null {
  const fields = Object.keys(changes).filter((f) => ROLE_FIELDS.has(f));
  if (fields.length === 0) return null;
  const before: RecordedRole[] = [];
  const after: RecordedRole[] = [];
  for (const field of fields) {
    const value = changes[field];
    if (isBeforeAfter(value)) {
      before.push(...recordedRoles(value.before));
      after.push(...recordedRoles(value.after));
    } else if (field === 'added') {
      after.push(...recordedRoles(value));
    } else {
      after.push(...recordedRoles(value));
    }
  }
  const visible = (roles: RecordedRole[]) => roles.filter((r) => roleInScope(r, lookups));
  return { before: visible(before), after: visible(after) };
}

/** What a role change gives and takes away (a role whose inheritance alone changed counts in neither). */
export function rolesGivenAndTaken(change: RoleChange): { given: RecordedRole[]; taken: RecordedRole[] } {
  const beforeKeys = new Set(change.before.map(roleKey));
  const afterKeys = new Set(change.after.map(roleKey));
  return { given: change.after.filter((r) => !beforeKeys.has(roleKey(r))), taken: change.before.filter((r) => !afterKeys.has(roleKey(r))) };
}

function rolesText(roles: RecordedRole[], lookups: JournalLookups): string | null {
  return roles.length === 0 ? null : roles.map((r) => roleOnOrganization(r, lookups)).join(' ; ');
}

/** The edit page's JSON text (spec §3) read as its fields: 'Fonction : Comptable, Ville : Lyon'; not JSON: as it is. */
function metadataText(text: string): string | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return valueText('metadata', parsed);
  } catch {
    // Not JSON: the text as recorded.
  }
  return valueText('metadata', text);
}

function fieldText(field: string, value: JsonValue | undefined, lookups: JournalLookups): string | null {
  if (field === 'organizationCode' && typeof value === 'string') return organizationLabel(value, lookups.organizationsByCode.get(value));
  if (field === 'roleCode' && typeof value === 'string') return roleLabel(value, lookups);
  if (field === 'invitationId' && (typeof value === 'number' || typeof value === 'string')) return `n° ${value}`;
  if (field === 'filters') return filtersText(value, lookups);
  if (field === 'metadata' && typeof value === 'string') return metadataText(value);
  if ((field === 'invitationSentAt' || field === 'dormancyWarnedAt') && typeof value === 'string') return frenchDateTime(value) || null;
  return valueText(field, value);
}

/** The order the fields read in, whatever order the change recorded them: the profile's (FIELD_LABELS'), unknown fields last. */
const FIELD_ORDER = new Map(Object.keys(FIELD_LABELS).map((field, index) => [field, index]));
const orderOf = (field: string) => FIELD_ORDER.get(field) ?? FIELD_ORDER.size;

/** Every changed field of an entry, in the profile's order; roles once, as 'Rôles'. */
export function journalDetails(changes: Record<string, JsonValue>, lookups: JournalLookups): JournalDetail[] {
  const details: JournalDetail[] = [];
  let rolesDone = false;
  for (const [field, value] of Object.entries(changes)) {
    if (HIDDEN_FIELDS.has(field)) continue;
    if (ROLE_FIELDS.has(field)) {
      if (rolesDone) continue;
      rolesDone = true;
      const change = roleChangeOf(changes, lookups)!;
      const before = rolesText(change.before, lookups);
      const after = rolesText(change.after, lookups);
      // Nothing the caller may read changed (the change was outside their scope): no detail.
      if ((before !== null || after !== null) && before !== after) details.push({ field: 'roles', label: FIELD_LABELS.roles!, before, after });
      continue;
    }
    const [before, after] = isBeforeAfter(value) ? [fieldText(field, value.before, lookups), fieldText(field, value.after, lookups)] : [null, fieldText(field, value, lookups)];
    if (before === null && after === null) continue;
    details.push({ field, label: FIELD_LABELS[field] ?? field, before, after });
  }
  return details.sort((a, b) => orderOf(a.field) - orderOf(b.field));
}

/** 'Fonction « Comptable » → « Responsable RH »'; an empty value reads '(vide)'. */
export function detailText(detail: JournalDetail): string {
  const quoted = (v: string | null) => (v === null ? '(vide)' : `« ${v} »`);
  return `${detail.label} ${quoted(detail.before)} → ${quoted(detail.after)}`;
}
