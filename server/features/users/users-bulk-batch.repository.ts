// A batch of persons of an action on many users done in one transaction (users-bulk-batch.service.ts): the starter's
// rights locked, the persons' outcomes claimed, their rows locked and changed with one statement each. SQL only.
import { reactivationColumns } from './users.model.ts';
import { sql, type Transaction } from 'kysely';
import type { Database, UserType } from '../../db/schema.ts';

/** What a batch reads of each person: what the decision, the journal entry and the refusal's names need. */
export interface BatchPerson {
  id: string;
  auth_id: string | null;
  email: string;
  first_name: string;
  last_name: string;
  user_type: UserType;
  is_active: boolean;
  dormancy_warned_at: Date | null;
}

/**
 * The batch's statements may take up to `ms` (its transaction only), not the API's 5 s: the users' search triggers
 * cost about a millisecond a person on a quiet machine, ten times that on a loaded one, and a batch that times out is
 * redone one person at a time, fifty times the statements. A request on one of the batch's persons waits for it.
 */
export async function allowBatchStatements(trx: Transaction<Database>, ms: number): Promise<void> {
  await sql`select set_config('statement_timeout', ${String(ms)}, true)`.execute(trx);
}

/**
 * Locks, until the transaction ends, what a change of the starter's rights writes: their user row (deactivated,
 * deleted, their type), their assignments and a back-office user's own permissions (FOR SHARE: batches of other
 * jobs read them too). A change of them waits for the batch, or the batch for it: it commits before the batch, which
 * then reads it, or after. Answers the starter's sign-in subject (null: their account is gone).
 */
export async function lockStarterRights(trx: Transaction<Database>, userId: string): Promise<string | null> {
  const starter = await trx.selectFrom('users').select('auth_id').where('id', '=', userId).forShare().executeTakeFirst();
  if (!starter) return null;
  await sql`select 1 from role_assignments where user_id = ${userId}::uuid for share`.execute(trx);
  await sql`select 1 from user_permissions where user_id = ${userId}::uuid for share`.execute(trx);
  await sql`select 1 from role_permissions rp where rp.role_id in (select role_id from role_assignments where user_id = ${userId}::uuid) for share of rp`.execute(trx);
  return starter.auth_id;
}

/**
 * The positions of the batch no run of the job has done yet, each locked until the transaction ends (in the
 * selection's order, as every run takes them): another run of the job that took one meanwhile waits, then skips it.
 */
export async function claimPositions(trx: Transaction<Database>, jobId: string, positions: readonly number[]): Promise<number[]> {
  const { rows } = await sql<{ position: number }>`
    select position from bulk_action_targets
     where bulk_action_id = ${jobId}::uuid and position = any(${[...positions]}::int[]) and outcome is null
     order by position
     for update`.execute(trx);
  return rows.map((r) => r.position);
}

const persons = (trx: Transaction<Database>, ids: readonly string[]) =>
  trx.selectFrom('users').select(['id', 'auth_id', 'email', 'first_name', 'last_name', 'user_type', 'is_active', 'dormancy_warned_at']).where('id', 'in', [...ids]).orderBy('id');

/** These users, their rows locked until the transaction ends, in id order (as every batch locks them); the missing ones left out. */
export async function lockPersons(trx: Transaction<Database>, ids: readonly string[]): Promise<BatchPerson[]> {
  return ids.length === 0 ? [] : persons(trx, ids).forUpdate().execute();
}

/** These users, read without a lock; the missing ones left out. */
export async function readPersons(trx: Transaction<Database>, ids: readonly string[]): Promise<BatchPerson[]> {
  return ids.length === 0 ? [] : persons(trx, ids).execute();
}

/** Sets these users' status in one statement, each version bumped once, as updateUserRow does for one (a reactivation's columns too). */
export async function setPersonsActive(trx: Transaction<Database>, ids: readonly string[], isActive: boolean, now: Date): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('users')
    .set({ is_active: isActive, version: sql<number>`version + 1`, updated_at: sql<Date>`now()`, ...(isActive ? reactivationColumns(now) : {}) })
    .where('id', 'in', [...ids])
    .execute();
}

export type BatchOutcome =
  | { position: number; outcome: 'succeeded' }
  | { position: number; outcome: 'refused'; reason: string; name: string | null; email: string | null };

/** Every outcome of the batch in one statement, each only if none is written yet (the positions claimed are locked). */
export async function writeOutcomes(trx: Transaction<Database>, jobId: string, outcomes: readonly BatchOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const refused = (o: BatchOutcome) => (o.outcome === 'refused' ? o : null);
  await sql`
    update bulk_action_targets t
       set outcome = x.outcome, reason = x.reason, name = x.name, email = x.email, done_at = now()
      from unnest(${outcomes.map((o) => o.position)}::int[], ${outcomes.map((o) => o.outcome)}::text[], ${outcomes.map((o) => refused(o)?.reason ?? null)}::text[],
                  ${outcomes.map((o) => refused(o)?.name ?? null)}::text[], ${outcomes.map((o) => refused(o)?.email ?? null)}::text[])
           as x(position, outcome, reason, name, email)
     where t.bulk_action_id = ${jobId}::uuid and t.position = x.position and t.outcome is null`.execute(trx);
}
