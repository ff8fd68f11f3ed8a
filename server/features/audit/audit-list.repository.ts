// Reading the audit trail (OpenAPI AuditEntry, AuditEntryList); writing is server/features/audit/audit.repository.ts.
import type { ExpressionBuilder, Kysely } from 'kysely';
import { pageOffset, type PageRequest } from '../../core/pages.ts';
import type { AuditAction, AuditEntityType, Database, JsonValue } from '../../db/schema.ts';

export interface AuditEntryDto {
  id: number;
  at: string;
  actorId: string | null;
  actorEmail: string | null;
  action: AuditAction;
  entityType: AuditEntityType;
  entityId: string;
  organizationId: string | null;
  changes: Record<string, JsonValue>;
}

export interface AuditFilter {
  /** Entries about this user (entity 'user' with this id), served by audit_log_entity_idx. */
  userId?: string | undefined;
  /** Entries about this organization, served by audit_log_organization_idx. */
  organizationId?: string | undefined;
  action?: AuditAction | undefined;
}

function matching(eb: ExpressionBuilder<Database, 'audit_log'>, filter: AuditFilter) {
  const conditions = [];
  if (filter.userId) conditions.push(eb('entity_type', '=', 'user'), eb('entity_id', '=', filter.userId));
  if (filter.organizationId) conditions.push(eb('organization_id', '=', filter.organizationId));
  if (filter.action) conditions.push(eb('action', '=', filter.action));
  return eb.and(conditions);
}

/** The entries a filter keeps, before selecting anything (tests EXPLAIN it). */
export function auditEntriesMatching(db: Kysely<Database>, filter: AuditFilter) {
  return db.selectFrom('audit_log').where((eb) => matching(eb, filter));
}

/** One page, newest first (ties by id, so pages never overlap), and the exact number of matching entries: two statements. */
export async function listAuditEntries(
  db: Kysely<Database>,
  filter: AuditFilter,
  page: PageRequest,
): Promise<{ items: AuditEntryDto[]; total: number }> {
  const [counted, rows] = await Promise.all([
    auditEntriesMatching(db, filter)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
    auditEntriesMatching(db, filter)
      .select(['id', 'at', 'actor_id', 'actor_email', 'action', 'entity_type', 'entity_id', 'organization_id', 'changes'])
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset(pageOffset(page))
      .execute(),
  ]);
  return {
    total: Number(counted.total),
    items: rows.map((row) => ({
      id: Number(row.id),
      at: row.at.toISOString(),
      actorId: row.actor_id,
      actorEmail: row.actor_email,
      action: row.action,
      entityType: row.entity_type,
      entityId: row.entity_id,
      organizationId: row.organization_id,
      changes: row.changes !== null && typeof row.changes === 'object' && !Array.isArray(row.changes) ? row.changes : {},
    })),
  };
}
