import { sql, type Kysely, type Transaction } from 'kysely';
import type { AuditAction, Database } from '../../db/schema.ts';
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

/**
 * Waits for, then holds until the end of the transaction, the lock of this actor's entries of this action: two
 * creations of one person, on any node, count one after the other (server/features/audit/creation-limit.service.ts).
 */
export async function lockActorAction(trx: Transaction<Database>, actorId: string, action: AuditAction): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`audit:${action}:${actorId}`}, 0))`.execute(trx);
}

/**
 * This actor's entries of this action in the last hour, by the database's clock (one clock for every node), served
 * by audit_log_actor_action_idx: how many, and in how many seconds the oldest of them leaves the hour.
 */
export async function countActorActionsInLastHour(trx: Transaction<Database>, actorId: string, action: AuditAction): Promise<{ count: number; secondsUntilOldestLeaves: number }> {
  const { rows } = await sql<{ count: string | number; seconds: string | number | null }>`
    select count(*)::int as count, ceil(extract(epoch from (min(at) + interval '1 hour' - now())))::int as seconds
    from audit_log
    where actor_id = ${actorId} and action = ${action} and at > now() - interval '1 hour'`.execute(trx);
  return { count: Number(rows[0]?.count ?? 0), secondsUntilOldestLeaves: Number(rows[0]?.seconds ?? 0) };
}
