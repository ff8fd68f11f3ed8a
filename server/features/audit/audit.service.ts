import type { Kysely } from 'kysely';
import type { Actor } from '../../core/actor.ts';
import type { PageRequest } from '../../core/pages.ts';
import type { Database } from '../../db/schema.ts';
import { listAuditEntries, type AuditEntryDto, type AuditFilter } from './audit-list.repository.ts';
import { requireCanReadAudit } from './audit.policy.ts';

export function auditService({ db }: { db: Kysely<Database> }) {
  return {
    /** Back office with USER_LIST; newest first. */
    async list(actor: Actor, filter: AuditFilter, page: PageRequest): Promise<{ items: AuditEntryDto[]; total: number }> {
      requireCanReadAudit(actor);
      return listAuditEntries(db, filter, page);
    },
  };
}

export type AuditService = ReturnType<typeof auditService>;
