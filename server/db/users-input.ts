// Request bodies of the users operations turned into checked values: the §5 field rules (shared zod
// schemas, French messages), organizations and roles found in the database, roles placed on organizations.
import { z } from 'zod';
import type { Kysely } from 'kysely';
import { emailSchema, fieldErrorsOf, personalDetailsSchema, personNameSchema, type PersonalDetails } from '../../src/domain/validation.ts';
import { ApiError, type FieldError } from '../http/errors.ts';
import type { Database } from './schema.ts';
import { canonicalRoleCode, loadRoles, toOrganization, type OrganizationRecord, type RoleRecord } from './users-read.ts';

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
} as const;

export const MAX_ROLES_PER_USER = 5;

/** 400 with the field errors; the message is the field's own when there is one. */
export function badRequest(fieldErrors: FieldError[]): ApiError {
  const message = fieldErrors.length === 1 ? fieldErrors[0]!.message : `Requête invalide : ${fieldErrors.map((f) => f.field).join(', ')}.`;
  return new ApiError(400, message, fieldErrors);
}

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, rename: Record<string, string> = {}): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw badRequest(fieldErrorsOf(result.error).map((f) => ({ field: `body.${rename[f.field] ?? f.field}`, message: f.message })));
}

/** The wizard's personal details (step 1 rules), with the body's own field names in the errors. */
export function checkPersonalDetails(input: Record<keyof PersonalDetails, string | null | undefined>, rename: Record<string, string> = {}): PersonalDetails {
  const withEmpty = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, v ?? '']));
  return parseOrThrow(personalDetailsSchema, withEmpty, rename);
}

const identitySchema = z.object({ firstName: personNameSchema, lastName: personNameSchema, email: emailSchema });

/** Names and email of an edit: the §5 rules. The other detail fields of the edit page are not checked (§5). */
export function checkIdentity(input: { firstName: string; lastName: string; email: string }): z.infer<typeof identitySchema> {
  return parseOrThrow(identitySchema, input);
}

/** A detail field of the edit page: trimmed; '' or null clears it. */
export function editable(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** Optional phone of the wizard: spaces removed by the schema; '' means none. */
export const orNull = (value: string) => (value === '' ? null : value);

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
    throw badRequest([{ field: 'body.metadata', message: INPUT_MESSAGES.metadataNotJson }]);
  }
  const details: Partial<Record<MetadataField, string | null>> = {};
  const errors: FieldError[] = [];
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
  if (errors.length) throw badRequest(errors);
  return { text: metadata, details };
}

/** Spec §5 / §9: 1 to 5 distinct roles per user. */
export function checkRoleCount(distinctRoles: number, field: string): void {
  if (distinctRoles < 1) throw badRequest([{ field, message: INPUT_MESSAGES.atLeastOneRole }]);
  if (distinctRoles > MAX_ROLES_PER_USER) throw badRequest([{ field, message: INPUT_MESSAGES.tooManyRoles }]);
}

// ---------------------------------------------------------------------------------------------
// Lookups: one statement each; an unknown entry (or one the caller may not use) is a field error.

export interface Lookup<T> {
  found: T[];
  errors: FieldError[];
}

/** Organizations by code, in the order given (duplicates dropped); `fieldOf(index)` names each entry's field. `usable` false counts as unknown. */
export async function organizationsByCode(
  db: Kysely<Database>,
  codes: readonly string[],
  fieldOf: (index: number) => string,
  usable: (organization: OrganizationRecord) => boolean,
): Promise<Lookup<OrganizationRecord>> {
  const rows = codes.length ? await db.selectFrom('organizations').selectAll().where('code', 'in', [...new Set(codes)]).execute() : [];
  const byCode = new Map(rows.map((row) => [row.code, toOrganization(row)]));
  const found = new Map<string, OrganizationRecord>();
  const errors: FieldError[] = [];
  codes.forEach((code, index) => {
    const organization = byCode.get(code);
    if (!organization || !usable(organization)) errors.push({ field: fieldOf(index), message: INPUT_MESSAGES.unknownOrganizationCode(code) });
    else found.set(organization.id, organization);
  });
  return { found: [...found.values()], errors };
}

/** Organizations by id; `fieldOf(index)` names each entry's field. */
export async function organizationsById(
  db: Kysely<Database>,
  ids: readonly string[],
  fieldOf: (index: number) => string,
  usable: (organization: OrganizationRecord) => boolean,
): Promise<Lookup<OrganizationRecord | undefined>> {
  const rows = ids.length ? await db.selectFrom('organizations').selectAll().where('id', 'in', [...new Set(ids)]).execute() : [];
  const byId = new Map(rows.map((row) => [row.id, toOrganization(row)]));
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
export async function rolesByReference(db: Kysely<Database>, references: readonly (string | number)[], fieldOf: (index: number) => string): Promise<Lookup<RoleRecord>> {
  const roles = await loadRoles(db);
  const found = new Map<number, RoleRecord>();
  const errors: FieldError[] = [];
  references.forEach((reference, index) => {
    const role = typeof reference === 'number' ? roles.find((r) => r.id === reference) : roles.find((r) => r.code === canonicalRoleCode(reference));
    if (!role) errors.push({ field: fieldOf(index), message: INPUT_MESSAGES.unknownRole(reference) });
    else found.set(role.id, role);
  });
  return { found: [...found.values()], errors };
}

export function throwIfErrors(...lookups: { errors: FieldError[] }[]): void {
  const errors = lookups.flatMap((l) => l.errors);
  if (errors.length) throw badRequest(errors);
}

// ---------------------------------------------------------------------------------------------
// Placing roles on organizations.

export interface PlannedAssignment {
  organizationId: string;
  roleId: number;
  inheritsToChildren: boolean;
}

/**
 * Spec §5, direct creation (and the complete update, by the same rule): at least one SIRET; every SIREN
 * given has at least one of its SIRETs; EXTERNAL roles go on every SIRET; INTERNAL roles go on the SIRENs
 * (inherited by their SIRETs), the SIREN of the first SIRET being added when none is given.
 */
export function placeRolesByType(
  organizations: readonly OrganizationRecord[],
  roles: readonly RoleRecord[],
  field: string,
  mode: 'create' | 'update',
): PlannedAssignment[] {
  const sirets = organizations.filter((o) => o.type === 'SIRET');
  const sirens = organizations.filter((o) => o.type === 'SIREN');
  const first = sirets[0];
  if (!first) {
    const message = mode === 'create' ? INPUT_MESSAGES.atLeastOneSiret : sirens.length ? INPUT_MESSAGES.siretPerSiren : INPUT_MESSAGES.atLeastOneSiren;
    throw badRequest([{ field, message }]);
  }
  if (sirens.some((siren) => !sirets.some((siret) => siret.parentId === siren.id))) {
    throw badRequest([{ field, message: INPUT_MESSAGES.siretPerSiren }]);
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
// Bodies and query of the users operations, as openapi.yaml shapes them (ajv checked them already).

export interface ListUsersQuery {
  page?: number;
  pageSize?: number;
  search?: string;
  organizationId?: string;
  roleCode?: string;
  includeInactive?: boolean;
  sort?: 'name' | 'email' | 'lastLogin';
  order?: 'asc' | 'desc';
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

interface EditableDetails {
  firstName: string;
  lastName: string;
  email: string;
  jobTitle: string | null;
  phoneNumber: string | null;
  mobilePhone: string | null;
  street: string | null;
  postalCode: string | null;
  city: string | null;
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
