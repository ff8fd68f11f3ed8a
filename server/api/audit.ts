import type { FastifyRequest } from 'fastify';
import type { JournalQuery } from '../features/audit/journal.input.ts';
import type { Services } from '../features/services.ts';
import { actorOf } from '../plugins/actor.ts';
import { pageAnswer, type PageRequest } from './pages.ts';

type AuditQuery = PageRequest & JournalQuery;

export function auditHandlers({ audit }: Services) {
  return {
    /** GET /api/v2/audit: the journal; USER_LIST, within the caller's scope; newest first. */
    async listAuditEntries(request: FastifyRequest<{ Querystring: AuditQuery }>) {
      const { page, pageSize, userId, organizationId, action, actorId, from, to, search } = request.query;
      const { items, total } = await audit.list(actorOf(request), { userId, organizationId, action, actorId, from, to, search }, { page, pageSize });
      return pageAnswer(items, total, { page, pageSize });
    },
  };
}
