import type { FastifyRequest } from 'fastify';
import type { HandlerDeps } from './deps.ts';
import { actorOf } from '../http/actor-hook.ts';
import { listAuditEntries } from '../db/audit-repo.ts';
import type { AuditAction } from '../db/schema.ts';
import { requireCanReadAudit } from '../policy/audit.ts';

interface AuditQuery {
  page: number;
  pageSize: number;
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
      const { items, total } = await listAuditEntries(
        db,
        { userId: query.userId, organizationId: query.organizationId, action: query.action },
        { page: query.page, pageSize: query.pageSize },
      );
      return { items, total, totalCount: total, page: query.page, pageSize: query.pageSize, totalPages: Math.ceil(total / query.pageSize) };
    },
  };
}
