// The jobs of actions on many users (migration 0016): the job, its selection, each person's outcome, the lease
// of the node working through it. SQL only.
import { sql, type Expression, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { BulkActionKind, Database } from '../../db/schema.ts';
import { userFilter, type UserFilter } from './users-list.repository.ts';

export interface BulkActionRow {
  id: string;
  actor_user_id: string;
  action: BulkActionKind;
  status: 'running' | 'completed';
  total: number;
  created_at: Date;
  finished_at: Date | null;
}

export interface BulkTarget {
  position: number;
  userId: string;
}

export interface BulkProgress {
  processed: number;
  succeeded: number;
  refusals: { userId: string; name: string; email: string; reason: string }[];
}

const JOB_COLUMNS = ['id', 'actor_user_id', 'action', 'status', 'total', 'created_at', 'finished_at'] as const;

/** The job and its selection by ids, in the order given. */
export async function insertJobWithIds(trx: Transaction<Database>, actorUserId: string, action: BulkActionKind, userIds: readonly string[]): Promise<BulkActionRow> {
  const job = await trx.insertInto('bulk_actions').values({ actor_user_id: actorUserId, action, total: userIds.length }).returning(JOB_COLUMNS).executeTakeFirstOrThrow();
  await sql`
    insert into bulk_action_targets (bulk_action_id, position, user_id)
    select ${job.id}::uuid, t.position, t.user_id from unnest(${[...userIds]}::uuid[]) with ordinality as t(user_id, position)`.execute(trx);
  return job;
}

/** How many users the filter selects, counted up to `limit` (the count stops there). */
export async function countFiltered(db: Kysely<Database>, filter: UserFilter, limit: number): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('users')
        .select('users.id')
        .where((inner): Expression<SqlBool> => userFilter(inner, filter))
        .limit(limit)
        .as('selected'),
    )
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The job and its selection by the list's filter, in the list's order (by name): one statement for the selection. */
export async function insertJobWithFilter(trx: Transaction<Database>, actorUserId: string, action: BulkActionKind, filter: UserFilter): Promise<BulkActionRow> {
  const job = await trx.insertInto('bulk_actions').values({ actor_user_id: actorUserId, action, total: 0 }).returning(JOB_COLUMNS).executeTakeFirstOrThrow();
  await trx
    .insertInto('bulk_action_targets')
    .columns(['bulk_action_id', 'position', 'user_id'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select([
          sql<string>`${job.id}::uuid`.as('bulk_action_id'),
          sql<number>`row_number() over (order by lower(users.last_name || users.first_name), users.id)`.as('position'),
          'users.id as user_id',
        ])
        .where((inner): Expression<SqlBool> => userFilter(inner as never, filter)),
    )
    .execute();
  return trx
    .updateTable('bulk_actions')
    .set({ total: sql<number>`(select count(*) from bulk_action_targets where bulk_action_id = ${job.id}::uuid)` })
    .where('id', '=', job.id)
    .returning(JOB_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function findJob(db: Kysely<Database>, id: string): Promise<BulkActionRow | undefined> {
  return db.selectFrom('bulk_actions').select(JOB_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** What the database says of a job's persons: done, succeeded, and each refusal in the selection's order. */
/**
 * The refusals a progress read answers, the first ones in the selection's order: the screen polls every second, and a
 * selection of 100,000 all refused would otherwise send every name and e-mail each time. The others are counted
 * (processed - succeeded - refusals shown).
 */
export const REFUSALS_SHOWN = 100;

/** Whether this person already has a job running (one at a time: startUsersBulkAction answers 429 otherwise). */
export async function hasRunningJob(db: Kysely<Database>, actorUserId: string): Promise<boolean> {
  const row = await db.selectFrom('bulk_actions').select('id').where('actor_user_id', '=', actorUserId).where('status', '=', 'running').limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function jobProgress(db: Kysely<Database>, id: string): Promise<BulkProgress> {
  const counts = await db
    .selectFrom('bulk_action_targets')
    .select([
      sql<number>`count(*) filter (where outcome is not null)::int`.as('processed'),
      sql<number>`count(*) filter (where outcome = 'succeeded')::int`.as('succeeded'),
    ])
    .where('bulk_action_id', '=', id)
    .executeTakeFirstOrThrow();
  const refused = await db
    .selectFrom('bulk_action_targets')
    .select(['user_id', 'name', 'email', 'reason'])
    .where('bulk_action_id', '=', id)
    .where('outcome', '=', 'refused')
    .orderBy('position')
    .limit(REFUSALS_SHOWN)
    .execute();
  return {
    processed: Number(counts.processed),
    succeeded: Number(counts.succeeded),
    refusals: refused.map((r) => ({ userId: r.user_id, name: r.name ?? '', email: r.email ?? '', reason: r.reason ?? '' })),
  };
}

/**
 * An unfinished job for this node: one nobody holds, or whose holder's lease has passed (its node stopped), taken
 * FOR UPDATE SKIP LOCKED so that two nodes claiming together take different jobs. Oldest first.
 */
export async function claimJob(db: Kysely<Database>, owner: string, leaseMs: number): Promise<BulkActionRow | undefined> {
  const { rows } = await sql<BulkActionRow>`
    with free as (
      select id from bulk_actions
       where status = 'running' and (lease_until is null or lease_until < now())
       order by created_at
       limit 1
       for update skip locked)
    update bulk_actions b
       set lease_owner = ${owner}, lease_until = now() + ${`${leaseMs} milliseconds`}::interval
      from free
     where b.id = free.id
    returning b.id, b.actor_user_id, b.action, b.status, b.total, b.created_at, b.finished_at`.execute(db);
  return rows[0];
}

/** Keeps the job's lease while this node works on it; false when another node has taken it since. */
export async function renewLease(db: Kysely<Database>, id: string, owner: string, leaseMs: number): Promise<boolean> {
  const result = await db
    .updateTable('bulk_actions')
    .set({ lease_until: sql<Date>`now() + ${`${leaseMs} milliseconds`}::interval` })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Lets the job go (the server stops): another node, or this one started again, takes it at once. */
export async function releaseLease(db: Kysely<Database>, id: string, owner: string): Promise<void> {
  await db.updateTable('bulk_actions').set({ lease_owner: null, lease_until: null }).where('id', '=', id).where('lease_owner', '=', owner).execute();
}

/** The next persons not yet done, in the selection's order. */
export async function pendingTargets(db: Kysely<Database>, id: string, limit: number): Promise<BulkTarget[]> {
  const rows = await db
    .selectFrom('bulk_action_targets')
    .select(['position', 'user_id'])
    .where('bulk_action_id', '=', id)
    .where('outcome', 'is', null)
    .orderBy('position')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ position: r.position, userId: r.user_id }));
}

/**
 * The person's outcome, only if not written yet (the row stays locked until the transaction ends): true when this
 * call wrote it. Called first in the person's unit of work for a success, alone for a refusal.
 */
export async function recordOutcome(
  db: Kysely<Database>,
  id: string,
  position: number,
  outcome: { outcome: 'succeeded' } | { outcome: 'refused'; reason: string; name: string | null; email: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('bulk_action_targets')
    .set({ ...outcome, done_at: sql<Date>`now()` })
    .where('bulk_action_id', '=', id)
    .where('position', '=', position)
    .where('outcome', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** One more unexpected failure of a person still to do: how many so far (0: the person is done meanwhile). */
export async function recordFailure(db: Kysely<Database>, id: string, position: number): Promise<number> {
  const row = await db
    .updateTable('bulk_action_targets')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('bulk_action_id', '=', id)
    .where('position', '=', position)
    .where('outcome', 'is', null)
    .returning('failures')
    .executeTakeFirst();
  return row?.failures ?? 0;
}

/** The job completed once no person is left: false while some are. */
export async function completeJob(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db
    .updateTable('bulk_actions')
    .set({ status: 'completed', finished_at: sql<Date>`now()`, lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('bulk_action_targets').select('position').where('bulk_action_id', '=', id).where('outcome', 'is', null))))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The auth subject of the job's starter, to load them as an actor again (null: their account is gone). */
export async function starterSubject(db: Kysely<Database>, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('auth_id').where('id', '=', userId).executeTakeFirst();
  return row?.auth_id ?? null;
}

/** Deletes at most `batch` jobs completed before `before`, with their persons; answers how many jobs. */
export async function deleteJobsFinishedBefore(db: Kysely<Database>, before: Date, batch: number): Promise<number> {
  const result = await db
    .deleteFrom('bulk_actions')
    .where('id', 'in', (eb) => eb.selectFrom('bulk_actions').select('id').where('status', '=', 'completed').where('finished_at', '<', before).limit(batch))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
