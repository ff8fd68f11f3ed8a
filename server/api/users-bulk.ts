// The operations on many users and the set-up link sent again: each handler parses what the contract left to it,
// calls one use case, presents the answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../features/services.ts';
import type { BulkActionBody } from '../features/users/users-bulk.input.ts';
import type { BulkActionView } from '../features/users/users-bulk.service.ts';
import { actorOf } from '../plugins/actor.ts';
import { sendCsv } from './csv.ts';

/** OpenAPI BulkAction. */
export function toBulkAction(job: BulkActionView) {
  return {
    id: job.id,
    action: job.action,
    status: job.status,
    total: job.total,
    processed: job.processed,
    succeeded: job.succeeded,
    refusals: job.refusals,
    createdAt: new Date(job.created_at).toISOString(),
    finishedAt: job.finished_at === null ? null : new Date(job.finished_at).toISOString(),
  };
}

export function usersBulkHandlers({ users, bulkActions }: Services) {
  return {
    /** POST /api/v2/users/{id}/resend-invitation */
    async resendUserInvitation(request: FastifyRequest<{ Params: { id: string } }>) {
      const { invitationSentAt } = await users.resendInvitation(actorOf(request), request.params.id, request.log);
      return { invitationSentAt: invitationSentAt.toISOString() };
    },

    /** POST /api/v2/users/bulk-actions: the job stored, 202 at once. */
    async startUsersBulkAction(request: FastifyRequest<{ Body: BulkActionBody }>, reply: FastifyReply) {
      return reply.code(202).send(toBulkAction(await bulkActions.start(actorOf(request), request.body)));
    },

    /** GET /api/v2/users/bulk-actions/{id} */
    async getUsersBulkAction(request: FastifyRequest<{ Params: { id: string } }>) {
      return toBulkAction(await bulkActions.get(actorOf(request), request.params.id));
    },

    /** POST /api/v2/users/export: the chosen users as a CSV file, streamed. */
    async exportSelectedUsers(request: FastifyRequest<{ Body: { userIds: string[] } }>, reply: FastifyReply) {
      return sendCsv(reply, await users.exportSelectedCsv(actorOf(request), request.body.userIds));
    },
  };
}
