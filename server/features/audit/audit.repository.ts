import { sql, type Kysely, type Transaction } from 'kysely';
import type { AuditAction, Database } from '../../db/schema.ts';
import { entryOrganizations, entrySearchText, entrySubjectSearchText, type AuditEntry } from './audit.model.ts';

export type { AuditEntry } from './audit.model.ts';

/** Writes one audit entry, in the transaction of the change it records. */
export async function writeAudit(trx: Transaction<Database> | Kysely<Database>, entry: AuditEntry): Promise<void> {
  await writeAudits(trx, [entry]);
}

/**
 * Writes these audit entries, in this order, in the transaction of the change they record: at most three
 * statements (the authors' names, the entries, every organization each concerns with its SIREN).
 */
export async function writeAudits(trx: Transaction<Database> | Kysely<Database>, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const actorIds = [...new Set(entries.map((e) => e.actor.userId).filter((id): id is string => id !== null))];
  const names = new Map<string, string>();
  if (actorIds.length > 0) {
    const rows = await trx.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', actorIds).execute();
    for (const row of rows) names.set(row.id, `${row.first_name} ${row.last_name}`);
  }
  const inserted = await trx
    .insertInto('audit_log')
    .values(
      entries.map((entry) => {
        const actorName = (entry.actor.userId ? names.get(entry.actor.userId) : undefined) ?? entry.actor.name ?? null;
        return {
          actor_id: entry.actor.userId,
          actor_email: entry.actor.email,
          action: entry.action,
          entity_type: entry.entityType,
          entity_id: String(entry.entityId),
          organization_id: entryOrganizations(entry)[0] ?? null,
          changes: JSON.stringify(entry.changes),
          actor_name: actorName,
          // The person's name, or for a request its invitee's e-mail ('demande n° 36 de …').
          subject_name: entry.subject?.name ?? entry.subject?.emails?.find((e) => typeof e === 'string') ?? null,
          search_text: entrySearchText(actorName, entry),
          subject_search_text: entrySubjectSearchText(entry),
        };
      }),
    )
    .returning(['id', 'at'])
    .execute();
  const concerned = entries.flatMap((entry, index) =>
    entryOrganizations(entry).map((organizationId) => ({ auditId: inserted[index]!.id, at: inserted[index]!.at, organizationId, action: entry.action })),
  );
  if (concerned.length === 0) return;
  await sql`insert into audit_log_organizations (audit_id, organization_id, siren_id, at, action)
    select x.audit_id, o.id, case when o.type = 'SIRET' then coalesce(o.parent_id, o.id) else o.id end, x.at, x.action
    from unnest(${concerned.map((c) => c.auditId)}::bigint[], ${concerned.map((c) => c.organizationId)}::uuid[], ${concerned.map((c) => c.at.toISOString())}::timestamptz[],
      ${concerned.map((c) => c.action)}::text[]) as x(audit_id, organization_id, at, action)
    join organizations o on o.id = x.organization_id`.execute(trx);
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

/** Deletes at most `limit` of the oldest entries written before `before` (their organizations go with them), served by audit_log_at_idx. */
export async function deleteAuditEntriesBefore(db: Kysely<Database>, before: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('audit_log')
    .where('id', 'in', (eb) => eb.selectFrom('audit_log').select('id').where('at', '<', before).orderBy('at').orderBy('id').limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many entries of this action concern this user in the last hour, by the database's clock (audit_log_entity_at_idx). */
export async function countEntityActionsInLastHour(trx: Transaction<Database>, userId: string, action: AuditAction): Promise<number> {
  const { rows } = await sql<{ count: number }>`
    select count(*)::int as count from audit_log
    where entity_type = 'user' and entity_id = ${userId} and action = ${action} and at > now() - interval '1 hour'`.execute(trx);
  return Number(rows[0]?.count ?? 0);
}
