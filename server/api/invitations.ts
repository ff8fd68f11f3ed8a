// The invitations operations: parse what the contract left to them, one use case, the answer presented.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../core/actor.ts';
import type { InvitationRow } from '../db/schema.ts';
import type { CreateInvitationBody, InvitationListQuery } from '../features/invitations/invitations.input.ts';
import type { Services } from '../features/services.ts';
import { actorOf } from '../plugins/actor.ts';
import { toInvitationDto } from './invitations.presenter.ts';
import { pageAnswer } from './pages.ts';

type ById = FastifyRequest<{ Params: { id: number } }>;

export function invitationsHandlers({ invitations }: Services) {
  const present = (actor: Actor, row: InvitationRow) => toInvitationDto(row, invitations.actionsOn(actor, row), invitations.expiresAt(row));

  return {
    /** GET /api/v2/invitations: back-office only; default order newest first. */
    async listInvitations(request: FastifyRequest<{ Querystring: InvitationListQuery }>) {
      const actor = actorOf(request);
      const { rows, total } = await invitations.list(actor, request.query);
      const items = rows.map((row) => present(actor, row));
      return { invitations: items, ...pageAnswer(items, total, request.query) };
    },

    /** GET /api/v2/invitations/mine: the requests the caller made, newest first. */
    async listMyInvitations(request: FastifyRequest<{ Querystring: InvitationListQuery }>) {
      const actor = actorOf(request);
      const { rows, total } = await invitations.listMine(actor, request.query);
      const items = rows.map((row) => present(actor, row));
      return { invitations: items, ...pageAnswer(items, total, request.query) };
    },

    /** GET /api/v2/invitations/{id}: back-office only. */
    async getInvitation(request: ById) {
      const actor = actorOf(request);
      return present(actor, await invitations.get(actor, request.params.id));
    },

    /** POST /api/v2/invitations: see server/features/invitations/invitations.policy.ts for who may ask what. */
    async createInvitation(request: FastifyRequest<{ Body: CreateInvitationBody; Querystring: { organizationId?: string } }>, reply: FastifyReply) {
      const actor = actorOf(request);
      const row = await invitations.create(actor, request.body, request.query.organizationId);
      return reply.code(201).send(present(actor, row));
    },

    /** POST /api/v2/invitations/{id}/approve: back-office with USER_CREATE. */
    async approveInvitation(request: ById) {
      const actor = actorOf(request);
      return present(actor, await invitations.approve(actor, request.params.id, request.log));
    },

    /** POST /api/v2/invitations/{id}/reject: back-office with USER_CREATE; a reason of 10 characters or more once trimmed. */
    async rejectInvitation(request: FastifyRequest<{ Params: { id: number }; Body: { rejectionReason: string } }>) {
      const actor = actorOf(request);
      return present(actor, await invitations.reject(actor, request.params.id, request.body.rejectionReason, request.log));
    },

    /** POST /api/v2/invitations/{id}/cancel: its requester, or the back office with USER_CREATE; the reason optional. */
    async cancelInvitation(request: FastifyRequest<{ Params: { id: number }; Body: { reason?: string } | undefined }>) {
      const actor = actorOf(request);
      return present(actor, await invitations.cancel(actor, request.params.id, request.body?.reason, request.log));
    },
  };
}
