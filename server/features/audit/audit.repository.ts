import { sql, type Kysely, type Transaction } from 'kysely';
import type { AuditAction, Database } from '../../db/schema.ts';
import { entryOrganizations, entrySearchText, entrySubjectSearchText, type AuditEntry } from './audit.model.ts';

export type { AuditEntry } from './audit.model.ts';

/** Writes one audit entry, in the transaction of the change it records. */
export async function writeAudit(trx: Transaction<Database> | Kysely<Database>, entry: AuditEntry): Promise<void> {
  await writeAudits(trx, [entry]);
}

/**
 * Writes these audit entries, in this order, in the transaction of the change they record, with every organization
 * each concerns and its SIREN: one statement. An author the request loaded is named as loaded (Actor.name), while
 * their account exists; another person's name is read first (one statement more).
 */
export async function writeAudits(trx: Transaction<Database> | Kysely<Database>, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const unnamed = [...new Set(entries.filter((e) => e.actor.userId !== null && !e.actor.name).map((e) => e.actor.userId!))];
  const names = new Map<string, string>();
  if (unnamed.length > 0) {
    const rows = await trx.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', unnamed).execute();
    for (const row of rows) names.set(row.id, `${row.first_name} ${row.last_name}`);
  }
  const rows = entries.map((entry) => {
    const actorName = entry.actor.name ?? (entry.actor.userId ? names.get(entry.actor.userId) : undefined) ?? null;
    return {
      actorId: entry.actor.userId,
      actorEmail: entry.actor.email,
      organizationId: entryOrganizations(entry)[0] ?? null,
      changes: JSON.stringify(entry.changes),
      actorName,
      // The person's name, or for a request its invitee's e-mail ('demande n° 36 de …').
      subjectName: entry.subject?.name ?? entry.subject?.emails?.find((e) => typeof e === 'string') ?? null,
      searchText: entrySearchText(actorName, entry),
      // The same without the author's name: kept when the author's account is gone by the time of writing (erased
      // under a request still running), as a name read from users would have been missing.
      searchTextUnnamed: entrySearchText(null, entry),
      subjectSearchText: entrySubjectSearchText(entry),
    };
  });
  // Each entry's organizations, by the entry's place (1-based). The entries are inserted in that order, so their
  // ids (an identity, drawn row by row) rank them in it.
  const concerned = entries.flatMap((entry, index) => entryOrganizations(entry).map((organizationId) => ({ n: index + 1, organizationId })));
  const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((r) => r[key]);
  await sql`with entry as (
      select * from unnest(${column('actorId')}::uuid[], ${column('actorEmail')}::text[], ${entries.map((e) => e.action)}::text[],
        ${entries.map((e) => e.entityType)}::text[], ${entries.map((e) => String(e.entityId))}::text[], ${column('organizationId')}::uuid[],
        ${column('changes')}::jsonb[], ${column('actorName')}::text[], ${column('subjectName')}::text[], ${column('searchText')}::text[],
        ${column('searchTextUnnamed')}::text[], ${column('subjectSearchText')}::text[])
        with ordinality as e (actor_id, actor_email, action, entity_type, entity_id, organization_id, changes, actor_name, subject_name, search_text,
          search_text_unnamed, subject_search_text, n)
    ), named as (
      select e.*, e.actor_id is null or exists (select 1 from users as u where u.id = e.actor_id) as author_known from entry as e
    ), inserted as (
      insert into audit_log (actor_id, actor_email, action, entity_type, entity_id, organization_id, changes, actor_name, subject_name, search_text, subject_search_text)
      select actor_id, actor_email, action, entity_type, entity_id, organization_id, changes, case when author_known then actor_name end, subject_name,
        case when author_known then search_text else search_text_unnamed end, subject_search_text
      from named order by n
      returning id, at, action
    ), numbered as (
      select id, at, action, row_number() over (order by id) as n from inserted
    )
    insert into audit_log_organizations (audit_id, organization_id, siren_id, at, action)
    select i.id, o.id, case when o.type = 'SIRET' then coalesce(o.parent_id, o.id) else o.id end, i.at, i.action
    from numbered i join unnest(${concerned.map((c) => c.n)}::int[], ${concerned.map((c) => c.organizationId)}::uuid[]) as c (n, organization_id) on c.n = i.n
    join organizations o on o.id = c.organization_id`.execute(trx);
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
