// Request bodies of the users operations turned into checked values: the §5 field rules (shared zod
// schemas, French messages), and the organizations and roles a body names matched against those found
// (assignments.service.ts looks them up and places them). Pure: no database, no HTTP.
import { z } from 'zod';
import { roleDisplayLabel } from '../../../rules/roles.ts';
import { emailSchema, fieldErrorsOf, personalDetailsSchema, personNameSchema, type PersonalDetails } from '../../../rules/validation.ts';
import { invalid, type FieldError } from '../../core/errors.ts';
import { nulCharacterErrors } from '../../core/text.ts';
import type { OrganizationDto } from '../organizations/organizations.repository.ts';
import type { RoleRecord } from '../roles/roles.repository.ts';
import type { UserSort } from './users-sort.repository.ts';
import { canonicalRoleCode, type AccountState, type NewUserFields, type PlannedAssignment } from './users.model.ts';

export const INPUT_MESSAGES = {
  atLeastOneSiret: 'At least one organization (SIRET) must be selected to create a user',
  siretPerSiren: 'Veuillez sélectionner au moins un SIRET pour chaque SIREN',
  atLeastOneSiren: 'Veuillez sélectionner au moins un SIREN',
  atLeastOneRole: 'Veuillez sélectionner au moins un rôle.',
  tooManyRoles: 'Vous avez atteint la limite de 5 rôles.',
  unknownOrganizationCode: (code: string) => `Impossible de trouver l'organisation pour le code ${code}.`,
  unknownOrganization: 'Organisation introuvable.',
  unknownRole: (role: string | number) => `Rôle inconnu : ${role}.`,
  metadataNotJson: 'Le champ metadata doit contenir du JSON valide.',
  oneOrganizationReference: 'Indiquez organizationId ou organizationCode, pas les deux.',
  /** The invitations' words (spec §4, §5): the back office's own role is never given on an organization. */
  backOfficeRole: "Le rôle Admin OPCO est celui du back-office : il ne s'attribue pas sur une organisation.",
  internalRoleOnSiren: (roleName: string) => `Le rôle « ${roleDisplayLabel(roleName)} » ne s'attribue que sur un SIREN, pas sur un établissement (SIRET).`,
} as const;

/** The back office's own role: never an organization role, by any route. */
export const BACK_OFFICE_ROLE_CODE = 'ADMIN_OPCO';

export const MAX_ROLES_PER_USER = 5;

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, rename: Record<string, string> = {}): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalid(fieldErrorsOf(result.error).map((f) => ({ field: `body.${rename[f.field] ?? f.field}`, message: f.message })));
}

/** A new user's fields: the wizard's personal details (step 1 rules), with the body's own field names in the errors. */
export function checkNewUser(input: Record<keyof PersonalDetails, string | null | undefined>, rename: Record<string, string> = {}): NewUserFields {
  const withEmpty = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, v ?? '']));
  const details = parseOrThrow(personalDetailsSchema, withEmpty, rename);
  // Optional phones: spaces removed by the schema; '' means none.
  return { ...details, phoneNumber: orNull(details.phoneNumber), mobilePhone: orNull(details.mobilePhone) };
}

const identitySchema = z.object({ firstName: personNameSchema, lastName: personNameSchema, email: emailSchema });

/** Names and email of an edit: the §5 rules. The other detail fields of the edit page are not checked (§5). */
export function checkIdentity(input: { firstName: string; lastName: string; email: string }): z.infer<typeof identitySchema> {
  return parseOrThrow(identitySchema, input);
}

/** A detail field of the edit page: trimmed; '' or null clears it. */
function editable(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

const orNull = (value: string) => (value === '' ? null : value);

/** The fields of the edit page (fullUpdateUser, updateUserComplete): names and email by the §5 rules, the other details trimmed. */
export function checkEditedUser(input: EditableDetails): NewUserFields {
  return {
    ...checkIdentity(input),
    jobTitle: editable(input.jobTitle),
    phoneNumber: editable(input.phoneNumber),
    mobilePhone: editable(input.mobilePhone),
    street: editable(input.street),
    city: editable(input.city),
    postalCode: editable(input.postalCode),
  };
}

/** 400 naming the field when a list the operation needs is empty. */
export function checkNotEmpty(list: readonly unknown[], field: string, message: string): void {
  if (list.length === 0) throw invalid([{ field, message }]);
}

const METADATA_FIELDS = { jobTitle: 100, phoneNumber: 30, mobilePhone: 30, street: 200, postalCode: 5, city: 100 } as const;
type MetadataField = keyof typeof METADATA_FIELDS;

/**
 * updateUser's metadata (spec §3: JSON text that may hold jobTitle, street, postalCode, city): kept as
 * text, and the detail fields it holds as strings (or null) are applied to the user's columns.
 */
export function checkMetadata(metadata: string | null): { text: string | null; details: Partial<Record<MetadataField, string | null>> } {
  if (metadata === null || metadata.trim() === '') return { text: null, details: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    throw invalid([{ field: 'body.metadata', message: INPUT_MESSAGES.metadataNotJson }]);
  }
  // The text itself holds no U+0000 nor unpaired surrogate (input-guard.ts), but its JSON may write one as an escape.
  const errors: FieldError[] = nulCharacterErrors(parsed, 'body.metadata');
  if (errors.length) throw invalid(errors);
  const details: Partial<Record<MetadataField, string | null>> = {};
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    for (const [field, max] of Object.entries(METADATA_FIELDS) as [MetadataField, number][]) {
      const value = (parsed as Record<string, unknown>)[field];
      if (value !== null && typeof value !== 'string') continue;
      const cleaned = editable(value);
      if (cleaned !== null && cleaned.length > max) errors.push({ field: `body.metadata.${field}`, message: `Maximum ${max} caractères` });
      else if (field === 'postalCode' && cleaned !== null && !/^[0-9]{1,5}$/.test(cleaned)) errors.push({ field: 'body.metadata.postalCode', message: 'Le code postal doit contenir 5 chiffres' });
      else details[field] = cleaned;
    }
  }
  if (errors.length) throw invalid(errors);
  return { text: metadata, details };
}

/** Spec §5 / §9: 1 to 5 distinct roles per user. */
export function checkRoleCount(distinctRoles: number, field: string): void {
  if (distinctRoles < 1) throw invalid([{ field, message: INPUT_MESSAGES.atLeastOneRole }]);
  if (distinctRoles > MAX_ROLES_PER_USER) throw invalid([{ field, message: INPUT_MESSAGES.tooManyRoles }]);
}

/**
 * Spec §5, direct creation (and the complete update, by the same rule): at least one SIRET; every SIREN
 * given has at least one of its SIRETs; EXTERNAL roles go on every SIRET; INTERNAL roles go on the SIRENs
 * (inherited by their SIRETs), the SIREN of the first SIRET being added when none is given.
 */
export function placeRolesByType(
  organizations: readonly OrganizationDto[],
  roles: readonly RoleRecord[],
  field: string,
  mode: 'create' | 'update',
): PlannedAssignment[] {
  const sirets = organizations.filter((o) => o.type === 'SIRET');
  const sirens = organizations.filter((o) => o.type === 'SIREN');
  const first = sirets[0];
  if (!first) {
    const message = mode === 'create' ? INPUT_MESSAGES.atLeastOneSiret : sirens.length ? INPUT_MESSAGES.siretPerSiren : INPUT_MESSAGES.atLeastOneSiren;
    throw invalid([{ field, message }]);
  }
  if (sirens.some((siren) => !sirets.some((siret) => siret.parentId === siren.id))) {
    throw invalid([{ field, message: INPUT_MESSAGES.siretPerSiren }]);
  }
  const internal = roles.filter((r) => r.type === 'INTERNAL');
  const external = roles.filter((r) => r.type === 'EXTERNAL');
  const sirenIds = sirens.length ? sirens.map((s) => s.id) : internal.length && first.parentId ? [first.parentId] : [];
  return [
    ...sirenIds.flatMap((organizationId) => internal.map((role) => ({ organizationId, roleId: role.id, inheritsToChildren: true }))),
    ...sirets.flatMap((siret) => external.map((role) => ({ organizationId: siret.id, roleId: role.id, inheritsToChildren: false }))),
  ];
}

// ---------------------------------------------------------------------------------------------
// What a body names, matched against what was found: an unknown entry (or one the caller may not use) is a field error.

export interface Lookup<T> {
  found: T[];
  errors: FieldError[];
}

/** Organizations by code, in the order given (duplicates dropped); `fieldOf(index)` names each entry's field. `usable` false counts as unknown. */
export function matchOrganizationCodes(
  rows: readonly OrganizationDto[],
  codes: readonly string[],
  fieldOf: (index: number) => string,
  usable: (organization: OrganizationDto) => boolean,
): Lookup<OrganizationDto> {
  const byCode = new Map(rows.map((row) => [row.code, row]));
  const found = new Map<string, OrganizationDto>();
  const errors: FieldError[] = [];
  codes.forEach((code, index) => {
    const organization = byCode.get(code);
    if (!organization || !usable(organization)) errors.push({ field: fieldOf(index), message: INPUT_MESSAGES.unknownOrganizationCode(code) });
    else found.set(organization.id, organization);
  });
  return { found: [...found.values()], errors };
}

/** Organizations by id, one entry per id given; `fieldOf(index)` names each entry's field. */
export function matchOrganizationIds(
  rows: readonly OrganizationDto[],
  ids: readonly string[],
  fieldOf: (index: number) => string,
  usable: (organization: OrganizationDto) => boolean,
): Lookup<OrganizationDto | undefined> {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const errors: FieldError[] = [];
  const found = ids.map((id, index) => {
    const organization = byId.get(id);
    if (organization && usable(organization)) return organization;
    errors.push({ field: fieldOf(index), message: INPUT_MESSAGES.unknownOrganization });
    return undefined;
  });
  return { found, errors };
}

/** Roles by code (ORG_ADMIN read as ADMIN_ADHERENT) or by id, duplicates dropped. */
export function matchRoles(roles: readonly RoleRecord[], references: readonly (string | number)[], fieldOf: (index: number) => string): Lookup<RoleRecord> {
  const found = new Map<number, RoleRecord>();
  const errors: FieldError[] = [];
  references.forEach((reference, index) => {
    const role = typeof reference === 'number' ? roles.find((r) => r.id === reference) : roles.find((r) => r.code === canonicalRoleCode(reference));
    if (!role) errors.push({ field: fieldOf(index), message: INPUT_MESSAGES.unknownRole(reference) });
    else if (role.code === BACK_OFFICE_ROLE_CODE) errors.push({ field: fieldOf(index), message: INPUT_MESSAGES.backOfficeRole });
    else found.set(role.id, role);
  });
  return { found: [...found.values()], errors };
}

/**
 * An INTERNAL role (ADMIN_ADHERENT) on an organization the caller names sits on a SIREN only: 400 naming each
 * role given on a SIRET. (A creation or a complete update places it on the SIREN itself: placeRolesByType.)
 */
export function internalRolesOnSirenOnly(placed: readonly { organization: Pick<OrganizationDto, 'type'>; role: Pick<RoleRecord, 'type' | 'name'> | undefined; field: string }[]): void {
  const errors = placed.flatMap(({ organization, role, field }) =>
    role?.type === 'INTERNAL' && organization.type !== 'SIREN' ? [{ field, message: INPUT_MESSAGES.internalRoleOnSiren(role.name) }] : [],
  );
  if (errors.length) throw invalid(errors);
}

export function throwIfErrors(...lookups: { errors: FieldError[] }[]): void {
  const errors = lookups.flatMap((l) => l.errors);
  if (errors.length) throw invalid(errors);
}

// ---------------------------------------------------------------------------------------------
// Commands: what each users operation asks for, read from its body.

/** The organizations and roles of a creation or a complete update: roles placed by type on the organizations. */
export interface CodesAndRoles {
  kind: 'byCodes';
  codes: readonly string[];
  codesField: string;
  /** Role codes (createUser) or ids. */
  roles: readonly (string | number)[];
  rolesField: string;
  mode: 'create' | 'update';
}

/** Roles of explicit entries, each on an organization by id or by code (fullUpdateUser, replaceUserRoles). */
export interface ExplicitAssignments {
  kind: 'explicit';
  entries: readonly RoleAssignmentInput[];
  field: string;
}

/** Roles added in one organization to those the user holds (assignUserRoles). */
export interface AddedInOrganization {
  kind: 'addedIn';
  organizationId: string;
  roleIds: readonly number[];
  inheritsToChildren: boolean | undefined;
}

export type RolesChange = CodesAndRoles | ExplicitAssignments | AddedInOrganization;

export interface NewUserCommand {
  fields: NewUserFields;
  roles: CodesAndRoles;
}

/** createUser (the wizard's body, French field names). */
export function newUserFromWizard(b: CreateUserBody): NewUserCommand {
  const personal = { firstName: b.prenom, lastName: b.nom, email: b.email, jobTitle: b.jobTitle, phoneNumber: b.phoneNumber, mobilePhone: b.mobilePhone };
  const fields = checkNewUser({ ...personal, street: b.street, postalCode: b.postalCode, city: b.city }, { firstName: 'prenom', lastName: 'nom' });
  checkNotEmpty(b.sirets, 'body.sirets', INPUT_MESSAGES.atLeastOneSiret);
  checkRoleCount(new Set(b.roles.map(canonicalRoleCode)).size, 'body.roles');
  return { fields, roles: { kind: 'byCodes', codes: b.sirets, codesField: 'body.sirets', roles: b.roles, rolesField: 'body.roles', mode: 'create' } };
}

/** createUserComplete. */
export function newUserComplete(b: CreateUserCompleteBody): NewUserCommand {
  const personal = { firstName: b.firstName, lastName: b.lastName, email: b.email, jobTitle: b.jobTitle, phoneNumber: b.phoneNumber, mobilePhone: b.mobilePhone };
  const fields = checkNewUser({ ...personal, street: b.street, postalCode: b.postalCode, city: b.city });
  checkNotEmpty(b.organizationCodes, 'body.organizationCodes', INPUT_MESSAGES.atLeastOneSiret);
  checkRoleCount(new Set(b.roleIds).size, 'body.roleIds');
  return { fields, roles: { kind: 'byCodes', codes: b.organizationCodes, codesField: 'body.organizationCodes', roles: b.roleIds, rolesField: 'body.roleIds', mode: 'create' } };
}

/** A change of an existing user: fields, activation, roles (undefined: untouched), against the version read. */
export interface UserChange {
  fields: Partial<NewUserFields> & { metadata?: string | null };
  isActive?: boolean;
  roles?: RolesChange;
  /** The field the role count's error names. */
  rolesField?: string;
  /** The version the caller read (body `version` or If-Match): 409 when the user changed since. */
  expectedVersion?: number;
}

/** updateUser: names, e-mail and metadata (whose detail fields apply to the user's columns). */
export function identityChange(b: UpdateUserBody): UserChange {
  const identity = checkIdentity(b);
  const metadata = checkMetadata(b.metadata);
  return { fields: { ...metadata.details, ...identity, metadata: metadata.text } };
}

/** fullUpdateUser: the edit page's fields, activation and explicit assignments (at least one). */
export function fullUpdateChange(b: FullUpdateUserBody): UserChange {
  const fields = checkEditedUser(b);
  checkNotEmpty(b.roleAssignments, 'body.roleAssignments', INPUT_MESSAGES.atLeastOneRole);
  return { fields, isActive: b.isActive, roles: { kind: 'explicit', entries: b.roleAssignments, field: 'body.roleAssignments' }, rolesField: 'body.roleAssignments', expectedVersion: b.version };
}

/** updateUserComplete: the edit page's fields and roles placed by type on organization codes (at least one role). */
export function completeUpdateChange(b: UpdateUserCompleteBody): UserChange {
  const fields = checkEditedUser(b);
  checkNotEmpty(b.roleIds, 'body.roleIds', INPUT_MESSAGES.atLeastOneRole);
  const roles: CodesAndRoles = { kind: 'byCodes', codes: b.organizationCodes, codesField: 'body.organizationCodes', roles: b.roleIds, rolesField: 'body.roleIds', mode: 'update' };
  return { fields, roles, rolesField: 'body.roleIds', expectedVersion: b.version };
}

/** assignUserRoles: at least one role, added in one organization. */
export function addRolesChange(b: AssignUserRolesBody): UserChange {
  checkNotEmpty(b.roleIds, 'body.roleIds', INPUT_MESSAGES.atLeastOneRole);
  return { fields: {}, roles: { kind: 'addedIn', organizationId: b.organizationId, roleIds: b.roleIds, inheritsToChildren: b.inheritsToChildren }, rolesField: 'body.roleIds' };
}

/** replaceUserRoles: at least one entry. */
export function replaceRolesChange(b: ReplaceUserRolesBody): UserChange {
  checkNotEmpty(b.assignments, 'body.assignments', INPUT_MESSAGES.atLeastOneRole);
  return { fields: {}, roles: { kind: 'explicit', entries: b.assignments, field: 'body.assignments' }, rolesField: 'body.assignments' };
}

// ---------------------------------------------------------------------------------------------
// Bodies and query of the users operations, as openapi.yaml shapes them (ajv checked them already).

/** The filters of listUsers and exportUsers. */
export interface UserFilterQuery {
  search?: string;
  organizationId?: string;
  roleCode?: string;
  includeInactive?: boolean;
  excludeSelf?: boolean;
  sort?: UserSort;
  order?: 'asc' | 'desc';
  /** OpenAPI AccountState: listUsers, exportUsers, a bulk action's filters. */
  accountState?: AccountState;
}

export interface ListUsersQuery extends UserFilterQuery {
  page?: number;
  pageSize?: number;
}

/** exportUsers' query: listUsers' filters, its last-login sort spelled lastLoginAt (openapi.yaml). */
export interface ExportUsersQuery extends Omit<UserFilterQuery, 'sort'> {
  sort?: 'name' | 'email' | 'lastLoginAt';
}

/** exportUsers' query as listUsers' filters. */
export function exportFilterQuery({ sort, ...rest }: ExportUsersQuery): UserFilterQuery {
  return { ...rest, ...(sort ? { sort: sort === 'lastLoginAt' ? 'lastLogin' : sort } : {}) };
}

export interface CreateUserBody {
  nom: string;
  prenom: string;
  email: string;
  sirets: string[];
  roles: string[];
  phoneNumber: string | null;
  jobTitle: string;
  mobilePhone?: string | null;
  street: string;
  postalCode: string;
  city: string;
  hasInternalRole: boolean;
}

interface PersonalInput {
  email: string;
  firstName: string;
  lastName: string;
  jobTitle: string;
  phoneNumber?: string | null;
  mobilePhone?: string | null;
  street: string;
  postalCode: string;
  city: string;
}

export interface CreateUserCompleteBody extends PersonalInput {
  organizationCodes: string[];
  roleIds: number[];
}

export interface UpdateUserBody {
  firstName: string;
  lastName: string;
  email: string;
  metadata: string | null;
}

interface EditableDetails extends NewUserFields {
  version?: number;
}

export interface RoleAssignmentInput {
  organizationId?: string;
  organizationCode?: string;
  roleIds: number[];
  inheritsToChildren?: boolean;
}

export interface FullUpdateUserBody extends EditableDetails {
  isActive: boolean;
  roleAssignments: RoleAssignmentInput[];
}

export interface UpdateUserCompleteBody extends EditableDetails {
  organizationCodes: string[];
  roleIds: number[];
}

export interface AssignUserRolesBody {
  organizationId: string;
  roleIds: number[];
  inheritsToChildren?: boolean;
}

export interface ReplaceUserRolesBody {
  assignments: RoleAssignmentInput[];
}
