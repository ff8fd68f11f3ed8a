import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '../db/schema.ts';
import type { Services } from '../features/services.ts';
import { actorOf } from '../plugins/actor.ts';
import { pageAnswer, type PageRequest } from './pages.ts';

interface AuditQuery extends PageRequest {
  userId?: string;
  organizationId?: string;
  action?: AuditAction;
}

export function auditHandlers({ audit }: Services) {
  return {
    /** GET /api/v2/audit: back office with USER_LIST; newest first. */
    async listAuditEntries(request: FastifyRequest<{ Querystring: AuditQuery }>) {
      const query = request.query;
      const page = { page: query.page, pageSize: query.pageSize };
      const { items, total } = await audit.list(actorOf(request), { userId: query.userId, organizationId: query.organizationId, action: query.action }, page);
      return pageAnswer(items, total, page);
    },
  };
}
