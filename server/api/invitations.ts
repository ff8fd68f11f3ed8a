// The invitations operations: parse what the contract left to them, one use case, the answer presented.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CreateInvitationBody, InvitationListQuery } from '../features/invitations/invitations.input.ts';
import type { Services } from '../features/services.ts';
import { actorOf } from '../plugins/actor.ts';
import { toInvitationDto } from './invitations.presenter.ts';
import { pageAnswer } from './pages.ts';

type ById = FastifyRequest<{ Params: { id: number } }>;

export function invitationsHandlers({ invitations }: Services) {
  return {
    /** GET /api/v2/invitations: back-office only; default order newest first. */
    async listInvitations(request: FastifyRequest<{ Querystring: InvitationListQuery }>) {
      const { rows, total } = await invitations.list(actorOf(request), request.query);
      const items = rows.map(toInvitationDto);
      return { invitations: items, ...pageAnswer(items, total, request.query) };
    },

    /** GET /api/v2/invitations/{id}: back-office only. */
    async getInvitation(request: ById) {
      return toInvitationDto(await invitations.get(actorOf(request), request.params.id));
    },

    /** POST /api/v2/invitations: see server/features/invitations/invitations.policy.ts for who may ask what. */
    async createInvitation(request: FastifyRequest<{ Body: CreateInvitationBody; Querystring: { organizationId?: string } }>, reply: FastifyReply) {
      const row = await invitations.create(actorOf(request), request.body, request.query.organizationId);
      return reply.code(201).send(toInvitationDto(row));
    },

    /** POST /api/v2/invitations/{id}/approve: back-office with USER_CREATE. */
    async approveInvitation(request: ById) {
      return toInvitationDto(await invitations.approve(actorOf(request), request.params.id, request.log));
    },

    /** POST /api/v2/invitations/{id}/reject: back-office with USER_CREATE; a reason of 10 characters or more once trimmed. */
    async rejectInvitation(request: FastifyRequest<{ Params: { id: number }; Body: { rejectionReason: string } }>) {
      return toInvitationDto(await invitations.reject(actorOf(request), request.params.id, request.body.rejectionReason, request.log));
    },
  };
}
