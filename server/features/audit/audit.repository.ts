import type { Kysely, Transaction } from 'kysely';
import type { AuditAction, Database, JsonValue } from '../../db/schema.ts';

export interface AuditEntry {
  actor: { userId: string | null; email: string | null };
  action: AuditAction;
  entityType: 'user' | 'invitation';
  entityId: string | number;
  organizationId?: string | null;
  /** { field: { before, after } } of the changed fields, or a description of what changed. */
  changes: Record<string, JsonValue>;
}

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

/** The before/after of the fields that differ, for an audit entry. */
export function changedFields<T extends Record<string, JsonValue | undefined>>(before: T, after: Partial<T>): Record<string, JsonValue> {
  const changes: Record<string, JsonValue> = {};
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const old = before[field] ?? null;
    if (JSON.stringify(old) !== JSON.stringify(value)) changes[field] = { before: old, after: value };
  }
  return changes;
}
