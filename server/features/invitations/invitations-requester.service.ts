// A requester's side of their requests (issue 22): the requests they made (GET /invitations/mine), and cancelling
// one while it is pending (POST /invitations/{id}/cancel; the back office holding USER_CREATE may cancel any).
// The request-lifecycle machine decides the move (request-lifecycle.model.ts); the cancellation and its journal
// entry are one unit of work.
import { personAuthor, type Actor } from '../../core/actor.ts';
import { conflict, notFound } from '../../core/errors.ts';
import type { InvitationRow } from '../../db/schema.ts';
import { inTransaction, type StepLog } from '../../db/unit-of-work.ts';
import { writeAudit } from '../audit/audit.repository.ts';
import type { ServiceDeps } from '../services.ts';
import { cancelPending, listInvitationsMadeBy } from './invitations-lifecycle.repository.ts';
import { lockInvitation } from './invitations.repository.ts';
import { checkCancellationReason, INVITATION_INPUT_MESSAGES, invitationIdOf, listQueryOf, type InvitationListQuery } from './invitations.input.ts';
import { allowedInvitationActions, requesterReach, requireCanReachRequest, type InvitationAction } from './invitations.policy.ts';
import { findOrganizationByCode } from '../organizations/organizations.repository.ts';
import { LIFECYCLE_MESSAGES, requestExpiresAt, requireMove } from './request-lifecycle.model.ts';

export function invitationsRequesterService(deps: ServiceDeps) {
  const { db } = deps;
  const expiryDays = deps.requests.expiryDays;

  return {
    /** When a request expires (or expired): its creation plus the period in force. */
    expiresAt(row: InvitationRow): Date {
      return row.status === 'EXPIRED' && row.processed_at ? row.processed_at : requestExpiresAt(row.created_at, expiryDays);
    },

    /** What the actor may do on a request, as the lifecycle machine decides: nothing on one past its period. */
    actionsOn(actor: Actor, row: InvitationRow): InvitationAction[] {
      const pastPeriod = row.status === 'PENDING' && deps.now().getTime() >= requestExpiresAt(row.created_at, expiryDays).getTime();
      return allowedInvitationActions(actor, row, pastPeriod);
    },

    /** GET /invitations/mine: the requests the actor made, newest first, in the statuses asked for. */
    async listMine(actor: Actor, query: InvitationListQuery) {
      const { statuses, page, pageSize } = listQueryOf(query);
      return listInvitationsMadeBy(db, actor.userId, { statuses, page, pageSize, organizationIds: requesterReach(actor) });
    },

    /**
     * POST /invitations/{id}/cancel: by the person who made it (an organization user reaches no other: 404), or
     * the back office holding USER_CREATE; only while pending and within its period (409 otherwise).
     */
    async cancel(actor: Actor, rawId: number, rawReason: string | undefined, log: StepLog = deps.log): Promise<InvitationRow> {
      const id = invitationIdOf(rawId);
      const reason = checkCancellationReason(rawReason);
      const by = personAuthor(actor);
      return inTransaction(
        db,
        async ({ trx }) => {
          const found = await lockInvitation(trx, id);
          if (!found) throw notFound(INVITATION_INPUT_MESSAGES.notFound);
          const organization = actor.isBackOffice ? null : await findOrganizationByCode(trx, found.organization_code, { kind: 'all' });
          requireCanReachRequest(actor, found, organization?.id ?? null, INVITATION_INPUT_MESSAGES.notFound);
          requireMove(found, 'request.cancel', actor, deps.now(), expiryDays);
          const row = await cancelPending(trx, id, by, reason);
          if (!row) throw conflict(LIFECYCLE_MESSAGES.notCancellable);
          await writeAudit(trx, {
            actor: by,
            action: 'invitation.cancel',
            entityType: 'invitation',
            entityId: row.id,
            organizationId: row.organization_id,
            subject: { emails: [row.invitee_email] },
            changes: { status: { before: 'PENDING', after: 'CANCELLED' }, ...(reason ? { cancellationReason: reason } : {}) },
          });
          return row;
        },
        log,
      );
    },
  };
}
