// The invitations use cases (requests for administrator rights and role assignments): list, read, create,
// approve, reject (cancelling and a person's own requests: invitations-requester.service.ts). Each write is one
// unit of work holding its audit entries and its e-mails (outbox); a failure leaves no trace. A decision moves
// only a pending request within its period (the request-lifecycle machine): of two deciders, exactly one wins.
import { personAuthor, type Actor } from '../../core/actor.ts';
import { conflict, invalid, notFound, unavailable } from '../../core/errors.ts';
import { newAccessRefusal } from '../organizations/organizations.policy.ts';
import type { InvitationRow } from '../../db/schema.ts';
import { inTransaction, type StepLog } from '../../db/unit-of-work.ts';
import { IdentityDirectoryError, IdentityTakenError } from '../../identity/directory.ts';
import { accountInvitationMail, invitationApprovedMail, invitationRejectedMail, type InvitationMailInput } from '../../mail/templates.ts';
import { writeAudit, writeAudits } from '../audit/audit.repository.ts';
import { requireWithinCreationLimit } from '../audit/creation-limit.service.ts';
import type { ServiceDeps } from '../services.ts';
import { grantRole, grantRoleCounting, insertUser, setAuthId } from '../users/users-write.repository.ts';
import { isUniqueViolation, WRITE_MESSAGES } from '../users/users.errors.ts';
import { INPUT_MESSAGES, MAX_ROLES_PER_USER } from '../users/users.input.ts';
import { decideApproval, decideRequest, type Decision } from './invitations-decision.repository.ts';
import {
  findInvitation,
  findOrganizationByCode,
  findOrganizationById,
  findRoleByCode,
  findUserByEmail,
  insertInvitation,
  listInvitations,
  type OrganizationRef,
} from './invitations.repository.ts';
import {
  checkInviteeEmail,
  checkNewPersonProfile,
  checkRejectionReason,
  checkRoleAndOrganization,
  INVITATION_INPUT_MESSAGES,
  invitationIdOf,
  listQueryOf,
  profileOf,
  requireOrganizationReference,
  requireSameOrganization,
  unknownRole,
  type CreateInvitationBody,
  type InvitationListQuery,
} from './invitations.input.ts';
import {
  invitationCreationSeesAccounts,
  requireCanCreateInvitations,
  requireCanDecideInvitation,
  requireCanInviteInto,
  requireCanListInvitations,
  requireCanReadInvitation,
  requireCanRequestRole,
  requireInviteeNotBackOffice,
  requireSameInviteeAccount,
  requiresInviteeProfile,
} from './invitations.policy.ts';
import { LIFECYCLE_MESSAGES, requireMove, waitingMadeBefore, type PersonMove } from './request-lifecycle.model.ts';

export const REFUSALS = {
  notFound: INVITATION_INPUT_MESSAGES.notFound,
  alreadyDecided: LIFECYCLE_MESSAGES.alreadyDecided,
  // The SPA recognises 'déjà en attente' and 'already exists' (spec §8).
  duplicatePending:
    'Une invitation est déjà en attente pour cette combinaison (email, organisation, rôle). An invitation already exists for this combination.',
  organizationGone: "L'organisation de cette demande n'existe plus : la demande ne peut pas être approuvée.",
  roleGone: "Le rôle de cette demande n'existe plus : la demande ne peut pas être approuvée.",
  noAccount: (email: string) =>
    `Aucun compte n'existe pour « ${email} » : le rôle ne peut pas être attribué. Approuvez d'abord sa demande d'administrateur, ou rejetez cette demande.`,
  noName: (email: string) => `La demande ne donne ni le prénom ni le nom de « ${email} » : son compte ne peut pas être créé.`,
  emailTaken: (email: string) => `Un compte vient d'être créé pour « ${email} » par ailleurs ; réessayez.`,
  directoryUnavailable: "Le service d'identité ne répond pas ; réessayez dans quelques instants.",
} as const;

/** What the e-mails about a request say of it. */
export function mailInput(row: InvitationRow): InvitationMailInput {
  return {
    senderEmail: row.sender_email,
    inviteeEmail: row.invitee_email,
    invitationId: row.id,
    invitationType: row.invitation_type,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    roleName: row.role_name,
  };
}

/** An identity already held, or an unreachable identity provider, as the answers people read. */
function directoryRefusal(error: unknown): unknown {
  if (error instanceof IdentityTakenError) return conflict(WRITE_MESSAGES.identityTaken);
  if (error instanceof IdentityDirectoryError) return unavailable(REFUSALS.directoryUnavailable);
  return error;
}

export function invitationsService(deps: ServiceDeps) {
  const { db, directory, outbox } = deps;

  /**
   * A decision's request, as decided: 404 for none, then the move asked of the request-lifecycle machine on the
   * request as it was found (409 for one no longer pending, cancelled or past its period: the transaction, rolled
   * back, undoes the decision), and 409 when another decider won (invitations-decision.repository.ts).
   */
  function requireDecided<D extends Decision>(decision: D | null, actor: Actor, move: PersonMove): D & { decided: InvitationRow } {
    if (!decision) throw notFound(REFUSALS.notFound);
    requireMove(decision.found, move, actor, deps.now(), deps.requests.expiryDays);
    if (!decision.decided) throw conflict(REFUSALS.alreadyDecided);
    return decision as D & { decided: InvitationRow };
  }

  /**
   * The request's organization: the query's organizationId, else the body's organizationCode. A missing
   * one and one outside the actor's scope answer the same 404, before the two references are compared.
   */
  async function organizationOf(actor: Actor, organizationId: string | undefined, organizationCode: string | undefined): Promise<OrganizationRef> {
    requireOrganizationReference(organizationId, organizationCode);
    const M = INVITATION_INPUT_MESSAGES;
    const notFoundMessage = organizationId ? M.organizationIdNotFound : M.organizationNotFound(organizationCode!);
    const organization = organizationId ? await findOrganizationById(db, organizationId) : await findOrganizationByCode(db, organizationCode!);
    if (!organization) throw notFound(notFoundMessage);
    requireCanInviteInto(actor, organization.id, notFoundMessage);
    requireSameOrganization(organizationId, organizationCode, organization);
    return organization;
  }

  return {
    /** GET /invitations: back-office only; newest first unless a sort is asked for. */
    async list(actor: Actor, query: InvitationListQuery) {
      requireCanListInvitations(actor);
      const pendingMadeBefore = query.waiting ? waitingMadeBefore(query.waiting, deps.now(), deps.requests) : undefined;
      return listInvitations(db, { ...listQueryOf(query), pendingMadeBefore }, deps.listTotals);
    },

    /** GET /invitations/{id}: back-office only. */
    async get(actor: Actor, id: number): Promise<InvitationRow> {
      requireCanReadInvitation(actor);
      const row = await findInvitation(db, invitationIdOf(id));
      if (!row) throw notFound(REFUSALS.notFound);
      return row;
    },

    /** POST /invitations: see invitations.policy.ts for who may ask what. */
    async create(actor: Actor, body: CreateInvitationBody, organizationId: string | undefined): Promise<InvitationRow> {
      requireCanCreateInvitations(actor);
      const inviteeEmail = checkInviteeEmail(body.inviteeEmail);
      const organization = await organizationOf(actor, organizationId, body.organizationCode);
      const role = await findRoleByCode(db, body.roleCode);
      if (!role) throw unknownRole(body.roleCode);
      requireCanRequestRole(actor, role);
      const organizationField = organizationId ? 'query.organizationId' : 'body.organizationCode';
      checkRoleAndOrganization(body.invitationType, role, organization, organizationField);
      const refusal = newAccessRefusal(organization);
      if (refusal) throw invalid([{ field: organizationField, message: refusal }]);

      const invitee = invitationCreationSeesAccounts(actor) ? await findUserByEmail(db, inviteeEmail) : null;
      requireInviteeNotBackOffice(invitee?.userType, inviteeEmail);
      if (requiresInviteeProfile(actor, body.invitationType, invitee !== null)) checkNewPersonProfile(body.metadata?.userProfile);

      try {
        return await inTransaction(db, async ({ trx }) => {
          await requireWithinCreationLimit(trx, actor, 'invitation', deps.creationLimits);
          const row = await insertInvitation(trx, { inviteeEmail, invitationType: body.invitationType, organization, role, sender: personAuthor(actor), metadata: body.metadata ?? null });
          await writeAudit(trx, {
            actor: personAuthor(actor),
            action: 'invitation.create',
            entityType: 'invitation',
            entityId: row.id,
            organizationId: row.organization_id,
            subject: { emails: [row.invitee_email] },
            changes: { inviteeEmail: row.invitee_email, invitationType: row.invitation_type, organizationCode: row.organization_code, roleCode: row.role_code },
          });
          return row;
        });
      } catch (error) {
        // Two requests at the same moment: the partial unique index lets one through.
        if (isUniqueViolation(error, 'invitations_one_pending_key')) throw conflict(REFUSALS.duplicatePending);
        throw error;
      }
    },

    /**
     * POST /invitations/{id}/approve: gives the request's role on its organization to the invitee (inherited
     * by the SIRETs when the organization is a SIREN). A NEW_ADMIN for an email without an account first
     * creates the account (portal user from metadata.userProfile, identity-provider account, set-up e-mail);
     * a ROLE_ASSIGNMENT needs an existing account. The requester is told by e-mail.
     */
    async approve(actor: Actor, rawId: number, log: StepLog = deps.log): Promise<InvitationRow> {
      requireCanDecideInvitation(actor);
      const id = invitationIdOf(rawId);
      try {
        return await inTransaction(
          db,
          async (uow) => {
            const { trx } = uow;
            // The request, what it gives and the invitee's account (locked: it cannot be deleted or changed under
            // this approval), read and decided in one statement.
            const decision = requireDecided(await decideApproval(trx, id, personAuthor(actor)), actor, 'request.approve');
            const { decided: row, organization, role, invitee: existing } = decision;
            if (!organization) throw conflict(REFUSALS.organizationGone);
            if (!role) throw conflict(REFUSALS.roleGone);
            // Closed or no longer a member since the request was made: no new role there (the request stays pending).
            const refusal = newAccessRefusal(organization);
            if (refusal) throw conflict(refusal);

            const email = row.invitee_email;
            requireSameInviteeAccount(row.invitee_user_id, existing?.id ?? null);
            const inheritsToChildren = organization.type === 'SIREN';
            const grant = { organizationId: organization.id, organizationCode: organization.code, roleCode: role.code, inheritsToChildren };
            let user = existing;
            // The organizations the person holds roles on with this approval (none read for an account it creates).
            let held: string[] = [];
            if (!user) {
              if (row.invitation_type !== 'NEW_ADMIN') throw conflict(REFUSALS.noAccount(email));
              const profile = profileOf(row.metadata);
              if (!profile.firstName || !profile.lastName) throw conflict(REFUSALS.noName(email));
              user = await insertUser(trx, {
                email,
                firstName: profile.firstName,
                lastName: profile.lastName,
                jobTitle: profile.jobTitle ?? null,
                phoneNumber: profile.phoneNumber ?? null,
                mobilePhone: profile.mobilePhone ?? null,
                street: profile.street ?? null,
                postalCode: profile.postalCode ?? null,
                city: profile.city ?? null,
              });
              await grantRole(trx, { userId: user.id, organizationId: organization.id, roleId: role.id, inheritsToChildren });
            } else {
              requireInviteeNotBackOffice(user.user_type, email);
              // Spec §5 / §9: at most 5 distinct roles, counted with the one just given; the user's version bumped with it.
              const granted = await grantRoleCounting(trx, { userId: user.id, organizationId: organization.id, roleId: role.id, inheritsToChildren });
              if (granted.roles > MAX_ROLES_PER_USER) throw conflict(INPUT_MESSAGES.tooManyRoles);
              held = granted.organizationIds;
            }
            const userCreated = !existing;
            const by = personAuthor(actor);
            // The entry about the person concerns every organization they belong to now, the new one first.
            const person = { organizationIds: [organization.id, ...held], subject: { name: `${user.first_name} ${user.last_name}`, emails: [email] } };
            await writeAudits(trx, [
              userCreated
                ? {
                    actor: by,
                    action: 'user.create',
                    entityType: 'user',
                    entityId: user.id,
                    organizationId: organization.id,
                    ...person,
                    changes: { email, firstName: user.first_name, lastName: user.last_name, userType: 'ORGANIZATION', roles: [grant], invitationId: row.id },
                  }
                : { actor: by, action: 'user.roles', entityType: 'user', entityId: user.id, organizationId: organization.id, ...person, changes: { added: [grant], invitationId: row.id } },
              {
                actor: by,
                action: 'invitation.approve',
                entityType: 'invitation',
                entityId: row.id,
                organizationId: row.organization_id,
                subject: { emails: [row.invitee_email] },
                changes: { status: { before: 'PENDING', after: 'APPROVED' }, userId: user.id, userCreated },
              },
            ]);
            await outbox.enqueue(uow, invitationApprovedMail(mailInput(row)));

            if (userCreated) {
              // The identity provider last: a remote directory cannot join this transaction (identity/directory.ts).
              const { subject, reused } = await directory.createAccount(trx, { email, displayName: `${user.first_name} ${user.last_name}` });
              // A remote account made for a transaction that did not commit is undone (never a reused one).
              if (!reused && directory.kind !== 'local') uow.onRollback({ what: 'deleteAccount', run: () => directory.deleteAccount(db, subject) });
              const sentAt = new Date();
              await setAuthId(trx, user.id, subject, sentAt);
              await outbox.enqueue(uow, accountInvitationMail({ email, firstName: user.first_name, lastName: user.last_name, setupUrl: deps.accountSetupUrl(subject, email, sentAt) }));
            }
            return row;
          },
          log,
        );
      } catch (error) {
        // Another approval or creation took the reused identity at the same moment.
        if (isUniqueViolation(error, 'users_auth_id_key')) throw conflict(WRITE_MESSAGES.identityTaken);
        if (isUniqueViolation(error, 'users_email_lower_key')) {
          const row = await findInvitation(db, id);
          throw conflict(REFUSALS.emailTaken(row?.invitee_email ?? ''));
        }
        throw directoryRefusal(error);
      }
    },

    /** POST /invitations/{id}/reject: a reason of 10 characters or more once trimmed; the requester is told by e-mail. */
    async reject(actor: Actor, rawId: number, rejectionReason: string, log: StepLog = deps.log): Promise<InvitationRow> {
      requireCanDecideInvitation(actor);
      const id = invitationIdOf(rawId);
      const reason = checkRejectionReason(rejectionReason);
      return inTransaction(
        db,
        async (uow) => {
          const { trx } = uow;
          const { decided: row } = requireDecided(await decideRequest(trx, id, personAuthor(actor), { status: 'REJECTED', rejection_reason: reason }), actor, 'request.reject');
          await writeAudit(trx, {
            actor: personAuthor(actor),
            action: 'invitation.reject',
            entityType: 'invitation',
            entityId: row.id,
            organizationId: row.organization_id,
            subject: { emails: [row.invitee_email] },
            changes: { status: { before: 'PENDING', after: 'REJECTED' }, rejectionReason: reason },
          });
          await outbox.enqueue(uow, invitationRejectedMail({ ...mailInput(row), rejectionReason: reason }));
          return row;
        },
        log,
      );
    },
  };
}

export type InvitationsService = ReturnType<typeof invitationsService>;
