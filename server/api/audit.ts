import type { FastifyRequest } from 'fastify';
import type { HandlerDeps } from './deps.ts';
import { actorOf } from '../plugins/actor.ts';
import { listAuditEntries } from '../features/audit/audit-list.repository.ts';
import type { AuditAction } from '../db/schema.ts';
import { pageAnswer, type PageRequest } from './pages.ts';
import { requireCanReadAudit } from '../features/audit/audit.policy.ts';

interface AuditQuery extends PageRequest {
  userId?: string;
  organizationId?: string;
  action?: AuditAction;
}

export function auditHandlers({ db }: HandlerDeps) {
  return {
    /** GET /api/v2/audit: back office with USER_LIST; newest first. */
    async listAuditEntries(request: FastifyRequest) {
      requireCanReadAudit(actorOf(request));
      const query = request.query as AuditQuery;
      const page = { page: query.page, pageSize: query.pageSize };
      const { items, total } = await listAuditEntries(db, { userId: query.userId, organizationId: query.organizationId, action: query.action }, page);
      return pageAnswer(items, total, page);
    },
  };
}
