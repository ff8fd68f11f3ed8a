// The edit page's form and its rules (spec §2 /utilisateurs/edit/{userId}, §4 edit tabs, §5 edit save, §6).
// Pure: the machine's guards, the screen's disabled states and the tests read the same functions.

export const EDIT_TABS = ['details', 'siren', 'siret', 'roles'] as const;
export type EditTab = (typeof EDIT_TABS)[number];

/** Spec §9: 1 to 5 roles per user. */
export const MAX_ROLES = 5;

export const DETAIL_FIELDS = ['firstName', 'lastName', 'email', 'jobTitle', 'phoneNumber', 'mobilePhone', 'street', 'postalCode', 'city'] as const;
export type DetailField = (typeof DETAIL_FIELDS)[number];
/** Free text on the edit page: spec §5 says its detail fields are not validated there (the server still checks names and email). */
export type EditDetails = Record<DetailField, string>;

export interface ChosenSiren {
  id: string;
  code: string;
  /** '' when unknown; screens show the spec's fallback 'SIREN {code}'. */
  name: string;
  /** Spec §4: all its SIRETs, expanded to their ids once they are loaded. */
  selectAll: boolean;
  /** Spec §5: the user holds an INTERNAL role there, so its SIRETs are locked (all of them, unchangeable). */
  locked: boolean;
}

export interface ChosenSiret {
  id: string;
  code: string;
  name: string;
  sirenId: string;
}

export interface EditForm {
  details: EditDetails;
  sirens: ChosenSiren[];
  sirets: ChosenSiret[];
  roleIds: number[];
}

export interface OfferedRole {
  id: number;
  code: string;
  name: string;
  type: 'INTERNAL' | 'EXTERNAL';
}

export function sirenHasSiret(form: Pick<EditForm, 'sirets'>, sirenId: string): boolean {
  return form.sirets.some((s) => s.sirenId === sirenId);
}

export function everySirenHasSiret(form: Pick<EditForm, 'sirens' | 'sirets'>): boolean {
  return form.sirens.every((s) => sirenHasSiret(form, s.id));
}

/** Why a tab cannot be opened (spec §2): the SIRET tab needs a SIREN; the roles tab a SIRET for each chosen SIREN. */
export type TabBlock = 'noSiren' | 'siretMissing';

export function tabBlock(form: Pick<EditForm, 'sirens' | 'sirets'>, tab: EditTab): TabBlock | null {
  if (tab === 'details' || tab === 'siren') return null;
  if (form.sirens.length === 0) return 'noSiren';
  if (tab === 'roles' && !everySirenHasSiret(form)) return 'siretMissing';
  return null;
}

/** Why saving is refused (spec §5), the first rule broken in the spec's order. */
export type SaveBlock = 'noSiren' | 'siretMissing' | 'noRole' | 'noChange';

export function saveBlock(form: EditForm, initial: EditForm): SaveBlock | null {
  if (form.sirens.length === 0) return 'noSiren';
  if (!everySirenHasSiret(form)) return 'siretMissing';
  if (form.roleIds.length === 0) return 'noRole';
  if (sameForm(form, initial)) return 'noChange';
  return null;
}

const sortedKey = (values: readonly (string | number)[]) => [...values].map(String).sort().join(',');

/** Same details (trimmed), SIRENs, SIRETs and roles: nothing to save. */
export function sameForm(a: EditForm, b: EditForm): boolean {
  return (
    DETAIL_FIELDS.every((field) => a.details[field].trim() === b.details[field].trim()) &&
    sortedKey(a.sirens.map((s) => s.id)) === sortedKey(b.sirens.map((s) => s.id)) &&
    sortedKey(a.sirets.map((s) => s.id)) === sortedKey(b.sirets.map((s) => s.id)) &&
    sortedKey(a.roleIds) === sortedKey(b.roleIds)
  );
}

/** A role can be added while fewer than 5 are chosen; removed always. */
export function canToggleRole(roleIds: readonly number[], roleId: number): boolean {
  return roleIds.includes(roleId) || roleIds.length < MAX_ROLES;
}

/** Spec §5: organization users do not see INTERNAL roles on the edit page. */
export function offeredRoles<R extends { type: 'INTERNAL' | 'EXTERNAL' }>(roles: readonly R[], editorIsBackOffice: boolean): R[] {
  return editorIsBackOffice ? [...roles] : roles.filter((r) => r.type !== 'INTERNAL');
}

/** The organization codes of updateUserComplete: the chosen SIRENs, then their SIRETs. */
export function organizationCodesOf(form: Pick<EditForm, 'sirens' | 'sirets'>): string[] {
  return [...form.sirens.map((s) => s.code), ...form.sirets.map((s) => s.code)];
}

/** What the edit page reads of the user's assignments (OpenAPI UserRoleAssignment). */
export interface EditAssignment {
  organizationId: string;
  organizationCode: string;
  organizationName: string;
  organizationType: 'SIREN' | 'SIRET';
  roleId: number;
  roleType: 'INTERNAL' | 'EXTERNAL';
  inheritsToChildren: boolean;
}

/** An organization known to the page, with its parent for a SIRET (OpenAPI Organization). */
export interface KnownOrganization {
  id: string;
  code: string;
  name: string;
  type: 'SIREN' | 'SIRET';
  parentId: string | null;
}

/**
 * The form as the user is now (spec §3 user detail for edit): each SIREN held, or parent of a SIRET held;
 * the SIRETs held; the roles held. A SIREN held with inheritsToChildren stands for all its SIRETs (select
 * all); one where an INTERNAL role is held has them locked. `organizations` must include each SIRET's parent.
 */
export function formFromAssignments(details: EditDetails, assignments: readonly EditAssignment[], organizations: readonly KnownOrganization[]): EditForm {
  const byId = new Map(organizations.map((o) => [o.id, o]));
  const sirens = new Map<string, ChosenSiren>();
  const sirets = new Map<string, ChosenSiret>();
  const addSiren = (id: string, code: string, name: string) => {
    if (!sirens.has(id)) sirens.set(id, { id, code, name, selectAll: false, locked: false });
    return sirens.get(id)!;
  };
  for (const a of assignments) {
    if (a.organizationType === 'SIREN') {
      const siren = addSiren(a.organizationId, a.organizationCode, a.organizationName);
      siren.selectAll ||= a.inheritsToChildren || a.roleType === 'INTERNAL';
      siren.locked ||= a.roleType === 'INTERNAL';
      continue;
    }
    const parent = byId.get(byId.get(a.organizationId)?.parentId ?? '');
    if (!parent) continue;
    addSiren(parent.id, parent.code, parent.name);
    sirets.set(a.organizationId, { id: a.organizationId, code: a.organizationCode, name: a.organizationName, sirenId: parent.id });
  }
  const roleIds = [...new Set(assignments.map((a) => a.roleId))];
  const bySirenCode = (x: { code: string }, y: { code: string }) => x.code.localeCompare(y.code);
  return { details, sirens: [...sirens.values()].sort(bySirenCode), sirets: [...sirets.values()].sort(bySirenCode), roleIds };
}

/** Spec §4: a SIREN marked 'select all' takes all its SIRETs once they are loaded (nothing else changes). */
export function expandSelectAll<F extends Pick<EditForm, 'sirens' | 'sirets'>>(form: F, sirenId: string, loaded: readonly ChosenSiret[]): F {
  const siren = form.sirens.find((s) => s.id === sirenId);
  if (!siren?.selectAll) return form;
  const all = loaded.filter((s) => s.sirenId === sirenId);
  return { ...form, sirets: [...form.sirets.filter((s) => s.sirenId !== sirenId), ...all] };
}

/**
 * Why a person may not edit this user. Whether they may is the server's decision (`allowedActions` holding
 * 'edit', issue 19); the page only picks the words: oneself (known before loading, spec §6), a holder of an
 * INTERNAL role for a non-back-office person (spec §2), else no right ('Vous n'avez pas le droit de …').
 */
export type EditRefusal = 'self' | 'internalRole' | 'noRight';

export function editRefusal(
  editor: { id: string; backOffice: boolean },
  target: { id: string; holdsInternalRole: boolean; mayEdit?: boolean },
): EditRefusal | null {
  if (editor.id === target.id) return 'self';
  if (target.mayEdit !== false) return null;
  return !editor.backOffice && target.holdsInternalRole ? 'internalRole' : 'noRight';
}
