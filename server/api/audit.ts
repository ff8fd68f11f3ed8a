import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendCsv } from './csv.ts';
import type { JournalQuery } from '../features/audit/journal.input.ts';
import type { Services } from '../features/services.ts';
import { actorOf } from '../plugins/actor.ts';
import { pageAnswer, type PageRequest } from './pages.ts';

type AuditQuery = PageRequest & JournalQuery;

export function auditHandlers({ audit }: Services) {
  return {
    /** GET /api/v2/audit: the journal; USER_LIST, within the caller's scope; newest first. */
    /** GET /api/v2/audit/export: the same entries, every one, as a CSV file streamed. */
    async exportAuditEntries(request: FastifyRequest<{ Querystring: JournalQuery }>, reply: FastifyReply) {
      const { userId, organizationId, action, actorId, from, to, search } = request.query;
      return sendCsv(reply, await audit.exportCsv(actorOf(request), { userId, organizationId, action, actorId, from, to, search }));
    },

    async listAuditEntries(request: FastifyRequest<{ Querystring: AuditQuery }>) {
      const { page, pageSize, userId, organizationId, action, actorId, from, to, search } = request.query;
      const { items, total } = await audit.list(actorOf(request), { userId, organizationId, action, actorId, from, to, search }, { page, pageSize });
      return pageAnswer(items, total, { page, pageSize });
    },
  };
}
