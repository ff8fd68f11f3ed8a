import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { HandlerDeps } from './deps.ts';
import { actorOf } from '../plugins/actor.ts';
import { ApiError, notFound, type FieldError } from './errors.ts';
import { pageAnswer, type PageRequest } from './pages.ts';
import type { Actor } from '../core/actor.ts';
import {
  invitationCreationSeesAccounts,
  requireCanCreateInvitations,
  requireCanDecideInvitation,
  requireCanInviteInto,
  requireCanListInvitations,
  requireCanReadInvitation,
  requireCanRequestRole,
  requireInviteeNotBackOffice,
  requiresInviteeProfile,
} from '../features/invitations/invitations.policy.ts';
import {
  findInvitation,
  findOrganizationByCode,
  findOrganizationById,
  findRoleByCode,
  findUserByEmail,
  listInvitations,
  toInvitationDto,
  type InvitationSort,
  type OrganizationRef,
} from '../features/invitations/invitations.repository.ts';
import {
  approveInvitation,
  createInvitation,
  InvitationRefusal,
  REFUSALS,
  rejectInvitation,
  type NewInvitationInput,
  type UserProfileInput,
} from '../features/invitations/invitations.service.ts';
import type { InvitationStatus, InvitationType } from '../db/schema.ts';
import { IdentityDirectoryError, IdentityTakenError } from '../identity/directory.ts';
import { WRITE_MESSAGES } from '../features/users/users-write.repository.ts';
import { accountSetupUrl } from '../dev-idp/account-setup.ts';
import {
  emailSchema,
  fieldErrorsOf,
  jobTitleSchema,
  optionalPhoneSchema,
  personNameSchema,
  postalCodeSchema,
  rejectionReasonSchema,
  streetSchema,
} from '../../rules/validation.ts';

const badRequest = (message: string, fieldErrors: FieldError[]) => new ApiError(400, message, fieldErrors);

const MESSAGES = {
  organizationMissing: "Indiquez l'organisation de la demande : organizationId (paramètre) ou organizationCode.",
  organizationMismatch: "organizationId et organizationCode désignent deux organisations différentes.",
  organizationNotFound: (code: string) => `Impossible de trouver l'organisation pour le code ${code}.`,
  organizationIdNotFound: 'Organisation introuvable.',
  unknownRole: (code: string) => `Rôle inconnu : ${code}.`,
  newAdminNeedsInternalRole: "Une demande d'administrateur (NEW_ADMIN) porte sur un rôle interne ; utilisez ROLE_ASSIGNMENT pour un rôle externe.",
  internalRoleNeedsSiren: 'Ce rôle est attribué sur un SIREN : choisissez le SIREN, pas un de ses établissements.',
  externalRoleNeedsSiret: 'Veuillez sélectionner au moins un SIRET pour les rôles externes.',
  directoryUnavailable: "Le service d'identité ne répond pas ; réessayez dans quelques instants.",
} as const;

interface ListQuery extends PageRequest {
  status?: string;
  search?: string;
  sort?: InvitationSort;
  order?: 'asc' | 'desc';
}

interface CreateBody {
  inviteeEmail: string;
  roleCode: string;
  invitationType: InvitationType;
  organizationCode?: string;
  metadata?: NonNullable<NewInvitationInput['metadata']>;
}

function invitationIdOf(request: FastifyRequest): number {
  const id = (request.params as { id: number }).id;
  // Beyond what a bigint identity reaches in practice: nothing there.
  if (!Number.isSafeInteger(id)) throw notFound(REFUSALS.notFound);
  return id;
}

/** Refusals of the decisions module as API errors; an unreachable identity provider as 503. */
function asApiError(error: unknown): unknown {
  if (error instanceof InvitationRefusal) return new ApiError(error.kind === 'notFound' ? 404 : 409, error.message);
  if (error instanceof IdentityTakenError) return new ApiError(409, WRITE_MESSAGES.identityTaken);
  if (error instanceof IdentityDirectoryError) return new ApiError(503, MESSAGES.directoryUnavailable);
  return error;
}

/**
 * The invitation's organization: the query's organizationId, else the body's organizationCode. A missing
 * one and one outside the actor's scope answer the same 404, before the two references are compared.
 */
async function organizationOf(deps: HandlerDeps, actor: Actor, organizationId: string | undefined, organizationCode: string | undefined): Promise<OrganizationRef> {
  if (!organizationId && !organizationCode) throw badRequest(MESSAGES.organizationMissing, [{ field: 'body.organizationCode', message: MESSAGES.organizationMissing }]);
  const notFoundMessage = organizationId ? MESSAGES.organizationIdNotFound : MESSAGES.organizationNotFound(organizationCode!);
  const organization = organizationId ? await findOrganizationById(deps.db, organizationId) : await findOrganizationByCode(deps.db, organizationCode!);
  if (!organization) throw notFound(notFoundMessage);
  requireCanInviteInto(actor, organization.id, notFoundMessage);
  if (organizationId && organizationCode && organization.code !== organizationCode) {
    throw badRequest(MESSAGES.organizationMismatch, [{ field: 'body.organizationCode', message: MESSAGES.organizationMismatch }]);
  }
  return organization;
}

/** Spec §5 email rule, as for users ('Adresse email invalide'); the trimmed address. */
function checkInviteeEmail(email: string): string {
  const parsed = emailSchema.safeParse(email);
  if (parsed.success) return parsed.data;
  const fieldErrors = fieldErrorsOf(parsed.error, 'body.inviteeEmail');
  throw badRequest(fieldErrors[0]!.message, fieldErrors);
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

function checkNewPersonProfile(profile: UserProfileInput | undefined): void {
  const result = newPersonProfileSchema.safeParse({ ...profile, firstName: profile?.firstName ?? '', lastName: profile?.lastName ?? '' });
  if (!result.success) {
    const fieldErrors = fieldErrorsOf(result.error, 'body.metadata.userProfile');
    throw badRequest(`Profil de la personne à inviter incomplet ou invalide : ${fieldErrors.map((f) => f.field).join(', ')}.`, fieldErrors);
  }
}

export function invitationsHandlers(deps: HandlerDeps) {
  const { db } = deps;
  return {
    /** GET /api/v2/invitations: back-office only; default order newest first. */
    async listInvitations(request: FastifyRequest) {
      requireCanListInvitations(actorOf(request));
      const query = request.query as ListQuery;
      const statuses = (query.status ?? '')
        .split(',')
        .map((s) => s.trim().toUpperCase())
        .filter(Boolean) as InvitationStatus[];
      const sort = query.sort ?? 'createdAt';
      const order = query.order ?? (query.sort ? 'asc' : 'desc');
      const { rows, total } = await listInvitations(db, { statuses, search: query.search, sort, order, page: query.page, pageSize: query.pageSize }, deps.listTotals);
      const invitations = rows.map(toInvitationDto);
      return { invitations, ...pageAnswer(invitations, total, query) };
    },

    /** GET /api/v2/invitations/{id}: back-office only. */
    async getInvitation(request: FastifyRequest) {
      requireCanReadInvitation(actorOf(request));
      const row = await findInvitation(db, invitationIdOf(request));
      if (!row) throw notFound(REFUSALS.notFound);
      return toInvitationDto(row);
    },

    /** POST /api/v2/invitations: see server/features/invitations/invitations.policy.ts for who may ask what. */
    async createInvitation(request: FastifyRequest, reply: FastifyReply) {
      const actor = actorOf(request);
      requireCanCreateInvitations(actor);
      const body = request.body as CreateBody;
      const inviteeEmail = checkInviteeEmail(body.inviteeEmail);
      const { organizationId } = request.query as { organizationId?: string };
      const organization = await organizationOf(deps, actor, organizationId, body.organizationCode);
      const role = await findRoleByCode(db, body.roleCode);
      if (!role) throw badRequest(MESSAGES.unknownRole(body.roleCode), [{ field: 'body.roleCode', message: MESSAGES.unknownRole(body.roleCode) }]);
      requireCanRequestRole(actor, role);

      // Spec §4 and §5: an administrator request is an INTERNAL role on a SIREN; external roles go on a SIRET.
      if (body.invitationType === 'NEW_ADMIN' && role.type !== 'INTERNAL') {
        throw badRequest(MESSAGES.newAdminNeedsInternalRole, [{ field: 'body.invitationType', message: MESSAGES.newAdminNeedsInternalRole }]);
      }
      const organizationField = organizationId ? 'query.organizationId' : 'body.organizationCode';
      if (role.type === 'INTERNAL' && organization.type !== 'SIREN') {
        throw badRequest(MESSAGES.internalRoleNeedsSiren, [{ field: organizationField, message: MESSAGES.internalRoleNeedsSiren }]);
      }
      if (role.type === 'EXTERNAL' && organization.type !== 'SIRET') {
        throw badRequest(MESSAGES.externalRoleNeedsSiret, [{ field: organizationField, message: MESSAGES.externalRoleNeedsSiret }]);
      }

      const invitee = invitationCreationSeesAccounts(actor) ? await findUserByEmail(db, inviteeEmail) : null;
      requireInviteeNotBackOffice(invitee?.userType, inviteeEmail);
      if (requiresInviteeProfile(actor, body.invitationType, invitee !== null)) checkNewPersonProfile(body.metadata?.userProfile);

      try {
        const row = await createInvitation(db, {
          inviteeEmail,
          invitationType: body.invitationType,
          organization,
          role,
          sender: { userId: actor.userId, email: actor.email },
          metadata: body.metadata ?? null,
        });
        return reply.code(201).send(toInvitationDto(row));
      } catch (error) {
        throw asApiError(error);
      }
    },

    /** POST /api/v2/invitations/{id}/approve: back-office with USER_CREATE. */
    async approveInvitation(request: FastifyRequest) {
      const actor = actorOf(request);
      requireCanDecideInvitation(actor);
      try {
        const { row } = await approveInvitation(db, invitationIdOf(request), {
          decider: { userId: actor.userId, email: actor.email },
          directory: deps.directory,
          setupUrl: accountSetupUrl,
        });
        return toInvitationDto(row);
      } catch (error) {
        throw asApiError(error);
      }
    },

    /** POST /api/v2/invitations/{id}/reject: back-office with USER_CREATE; a reason of 10 characters or more once trimmed. */
    async rejectInvitation(request: FastifyRequest) {
      const actor = actorOf(request);
      requireCanDecideInvitation(actor);
      const id = invitationIdOf(request);
      const parsed = rejectionReasonSchema.safeParse((request.body as { rejectionReason: string }).rejectionReason);
      if (!parsed.success) {
        const fieldErrors = fieldErrorsOf(parsed.error, 'body.rejectionReason');
        throw badRequest(fieldErrors[0]!.message, fieldErrors);
      }
      try {
        return toInvitationDto(await rejectInvitation(db, id, parsed.data, { userId: actor.userId, email: actor.email }));
      } catch (error) {
        throw asApiError(error);
      }
    },
  };
}
