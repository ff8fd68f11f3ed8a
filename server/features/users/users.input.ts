// Request bodies of the users operations turned into checked values: the §5 field rules (shared zod
// schemas, French messages), organizations and roles found in the database (users-plans.ts places them).
import { z } from 'zod';
import type { Kysely } from 'kysely';
import { emailSchema, fieldErrorsOf, personalDetailsSchema, personNameSchema, type PersonalDetails } from '../../../rules/validation.ts';
import { ApiError, type FieldError } from '../../api/errors.ts';
import { nulCharacterErrors } from '../../plugins/input-guard.ts';
import { toOrganizationDto, type OrganizationDto } from '../organizations/organizations.repository.ts';
import { loadRoles, type RoleRecord } from '../roles/roles.repository.ts';
import type { Database } from '../../db/schema.ts';
import { canonicalRoleCode, type UserSort } from './users-read.repository.ts';
import type { NewUserFields } from './users-write.repository.ts';

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
  if (list.length === 0) throw badRequest([{ field, message }]);
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
    throw badRequest([{ field: 'body.metadata', message: INPUT_MESSAGES.metadataNotJson }]);
  }
  // The text itself holds no U+0000 nor unpaired surrogate (input-guard.ts), but its JSON may write one as an escape.
  const errors: FieldError[] = nulCharacterErrors(parsed, 'body.metadata');
  if (errors.length) throw badRequest(errors);
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
  usable: (organization: OrganizationDto) => boolean,
): Promise<Lookup<OrganizationDto>> {
  const rows = codes.length ? await db.selectFrom('organizations').selectAll().where('code', 'in', [...new Set(codes)]).execute() : [];
  const byCode = new Map(rows.map((row) => [row.code, toOrganizationDto(row)]));
  const found = new Map<string, OrganizationDto>();
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
  usable: (organization: OrganizationDto) => boolean,
): Promise<Lookup<OrganizationDto | undefined>> {
  const rows = ids.length ? await db.selectFrom('organizations').selectAll().where('id', 'in', [...new Set(ids)]).execute() : [];
  const byId = new Map(rows.map((row) => [row.id, toOrganizationDto(row)]));
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
// Bodies and query of the users operations, as openapi.yaml shapes them (ajv checked them already).

export interface ListUsersQuery {
  page?: number;
  pageSize?: number;
  search?: string;
  organizationId?: string;
  roleCode?: string;
  includeInactive?: boolean;
  excludeSelf?: boolean;
  sort?: UserSort;
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
