// Request bodies and queries of the invitations operations turned into checked values (spec §4, §5). Pure.
import { z } from 'zod';
import {
  emailSchema,
  fieldErrorsOf,
  jobTitleSchema,
  optionalPhoneSchema,
  cancellationReasonSchema,
  personNameSchema,
  postalCodeSchema,
  rejectionReasonSchema,
  streetSchema,
} from '../../../rules/validation.ts';
import { invalid, notFound } from '../../core/errors.ts';
import type { PageRequest } from '../../core/pages.ts';
import type { InvitationStatus, InvitationType, JsonValue, OrganizationType, RoleType } from '../../db/schema.ts';
import type { WaitingFilter } from './request-lifecycle.model.ts';
import type { InvitationSort } from './invitations.repository.ts';

export const INVITATION_INPUT_MESSAGES = {
  organizationMissing: "Indiquez l'organisation de la demande : organizationId (paramètre) ou organizationCode.",
  organizationMismatch: "organizationId et organizationCode désignent deux organisations différentes.",
  organizationNotFound: (code: string) => `Impossible de trouver l'organisation pour le code ${code}.`,
  organizationIdNotFound: 'Organisation introuvable.',
  unknownRole: (code: string) => `Rôle inconnu : ${code}.`,
  newAdminNeedsInternalRole: "Une demande d'administrateur (NEW_ADMIN) porte sur un rôle interne ; utilisez ROLE_ASSIGNMENT pour un rôle externe.",
  internalRoleNeedsSiren: 'Ce rôle est attribué sur un SIREN : choisissez le SIREN, pas un de ses établissements.',
  externalRoleNeedsSiret: 'Veuillez sélectionner au moins un SIRET pour les rôles externes.',
  notFound: 'Aucune invitation trouvée.',
} as const;

const M = INVITATION_INPUT_MESSAGES;

export interface UserProfileInput {
  firstName?: string | null;
  lastName?: string | null;
  phoneNumber?: string | null;
  jobTitle?: string | null;
  mobilePhone?: string | null;
  street?: string | null;
  city?: string | null;
  postalCode?: string | null;
}

export type InvitationMetadata = { userProfile?: UserProfileInput; isNewUser?: boolean; senderEmail?: string | null };

export interface InvitationListQuery extends PageRequest {
  status?: string;
  search?: string;
  sort?: InvitationSort;
  order?: 'asc' | 'desc';
  /** listInvitations only. */
  waiting?: WaitingFilter;
}

export interface CreateInvitationBody {
  inviteeEmail: string;
  roleCode: string;
  invitationType: InvitationType;
  organizationCode?: string;
  metadata?: InvitationMetadata;
}

/** The list's statuses (`pending,approved`), its sort and order: newest first unless a sort is asked for. */
export function listQueryOf(query: InvitationListQuery) {
  const statuses = (query.status ?? '')
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean) as InvitationStatus[];
  const sort = query.sort ?? 'createdAt';
  const order = query.order ?? (query.sort ? 'asc' : 'desc');
  return { statuses, search: query.search, sort, order, page: query.page, pageSize: query.pageSize };
}

/** An invitation id of the path: beyond what a bigint identity reaches in practice, nothing is there. */
export function invitationIdOf(id: number): number {
  if (!Number.isSafeInteger(id)) throw notFound(M.notFound);
  return id;
}

/** The request names its organization by the query's organizationId, else by the body's organizationCode. */
export function requireOrganizationReference(organizationId: string | undefined, organizationCode: string | undefined): void {
  if (!organizationId && !organizationCode) throw invalid([{ field: 'body.organizationCode', message: M.organizationMissing }], M.organizationMissing);
}

/** Given both, they must name the same organization (compared once it was found within the caller's reach). */
export function requireSameOrganization(organizationId: string | undefined, organizationCode: string | undefined, found: { code: string }): void {
  if (organizationId && organizationCode && found.code !== organizationCode) {
    throw invalid([{ field: 'body.organizationCode', message: M.organizationMismatch }], M.organizationMismatch);
  }
}

/** Spec §5 email rule, as for users ('Adresse email invalide'); the trimmed address. */
export function checkInviteeEmail(email: string): string {
  const parsed = emailSchema.safeParse(email);
  if (parsed.success) return parsed.data;
  const fieldErrors = fieldErrorsOf(parsed.error, 'body.inviteeEmail');
  throw invalid(fieldErrors, fieldErrors[0]!.message);
}

export function unknownRole(code: string) {
  return invalid([{ field: 'body.roleCode', message: M.unknownRole(code) }], M.unknownRole(code));
}

/** Spec §4 and §5: an administrator request is an INTERNAL role on a SIREN; external roles go on a SIRET. */
export function checkRoleAndOrganization(
  invitationType: InvitationType,
  role: { type: RoleType },
  organization: { type: OrganizationType },
  organizationField: 'query.organizationId' | 'body.organizationCode',
): void {
  if (invitationType === 'NEW_ADMIN' && role.type !== 'INTERNAL') {
    throw invalid([{ field: 'body.invitationType', message: M.newAdminNeedsInternalRole }], M.newAdminNeedsInternalRole);
  }
  if (role.type === 'INTERNAL' && organization.type !== 'SIREN') {
    throw invalid([{ field: organizationField, message: M.internalRoleNeedsSiren }], M.internalRoleNeedsSiren);
  }
  if (role.type === 'EXTERNAL' && organization.type !== 'SIRET') {
    throw invalid([{ field: organizationField, message: M.externalRoleNeedsSiret }], M.externalRoleNeedsSiret);
  }
}

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : (value ?? undefined));
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

/** Spec §5 rules for the profile of a person whose account an approval will create (names required). */
const newPersonProfileSchema = z.object({
  firstName: personNameSchema,
  lastName: personNameSchema,
  jobTitle: optional(jobTitleSchema),
  phoneNumber: optional(optionalPhoneSchema),
  mobilePhone: optional(optionalPhoneSchema),
  street: optional(streetSchema),
  postalCode: optional(postalCodeSchema),
  city: optional(personNameSchema),
});

export function checkNewPersonProfile(profile: UserProfileInput | undefined): void {
  const result = newPersonProfileSchema.safeParse({ ...profile, firstName: profile?.firstName ?? '', lastName: profile?.lastName ?? '' });
  if (!result.success) {
    const fieldErrors = fieldErrorsOf(result.error, 'body.metadata.userProfile');
    throw invalid(fieldErrors, `Profil de la personne à inviter incomplet ou invalide : ${fieldErrors.map((f) => f.field).join(', ')}.`);
  }
}

/** A rejection's reason: 10 characters or more once trimmed; the trimmed text. */
export function checkRejectionReason(reason: string): string {
  const parsed = rejectionReasonSchema.safeParse(reason);
  if (parsed.success) return parsed.data;
  const fieldErrors = fieldErrorsOf(parsed.error, 'body.rejectionReason');
  throw invalid(fieldErrors, fieldErrors[0]!.message);
}

/** A cancellation's reason: optional, 500 characters at most once trimmed; null when blank or absent. */
export function checkCancellationReason(reason: string | undefined): string | null {
  if (reason === undefined) return null;
  const parsed = cancellationReasonSchema.safeParse(reason);
  if (parsed.success) return parsed.data;
  const fieldErrors = fieldErrorsOf(parsed.error, 'body.reason');
  throw invalid(fieldErrors, fieldErrors[0]!.message);
}

/** The profile a request's metadata gives of the person an approval creates: trimmed texts, blanks as null. */
export function profileOf(metadata: JsonValue | null): UserProfileInput {
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  const profile = metadata.userProfile;
  if (!profile || typeof profile !== 'object' || Array.isArray(profile)) return {};
  const text = (value: JsonValue | undefined) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
  return {
    firstName: text(profile.firstName),
    lastName: text(profile.lastName),
    phoneNumber: text(profile.phoneNumber),
    jobTitle: text(profile.jobTitle),
    mobilePhone: text(profile.mobilePhone),
    street: text(profile.street),
    city: text(profile.city),
    postalCode: text(profile.postalCode),
  };
}
