import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuditEntry } from './audit.model.ts';

export type { AuditEntry } from './audit.model.ts';

/** Writes one audit entry, in the transaction of the change it records. */
export async function writeAudit(trx: Transaction<Database> | Kysely<Database>, entry: AuditEntry): Promise<void> {
  await writeAudits(trx, [entry]);
}

/** Writes these audit entries in one statement, in this order, in the transaction of the change they record. */
export async function writeAudits(trx: Transaction<Database> | Kysely<Database>, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await trx
    .insertInto('audit_log')
    .values(
      entries.map((entry) => ({
        actor_id: entry.actor.userId,
        actor_email: entry.actor.email,
        action: entry.action,
        entity_type: entry.entityType,
        entity_id: String(entry.entityId),
        organization_id: entry.organizationId ?? null,
        changes: JSON.stringify(entry.changes),
      })),
    )
    .execute();
}
