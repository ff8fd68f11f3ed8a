// The SQL of dormant accounts (issue 23, migration 0022): the accounts due for each step of the dormancy jobs, the
// conditional updates that claim one, and the SIRENs whose last active employer administrator became dormant.
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { DAY_MS } from '../../core/time.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** When an account's first period starts: its latest sign-in, creation or reactivation (GREATEST ignores nulls). */
export const ACTIVITY = sql<Date>`greatest(users.last_login_at, users.created_at, users.reactivated_at)`;

/** The role codes of an employer administrator (ADMIN_ADHERENT, and its organization-role alias ORG_ADMIN). */
const ADMINISTRATOR_CODES = ['ADMIN_ADHERENT', 'ORG_ADMIN'];

/**
 * 'Comptes dormants': active, and warned or not signed in (nor created or reactivated) since `cutoff` (null: warned
 * only). Written as the two partial indexes of migration 0022 read them (warned; not warned by the start of the period).
 */
export function dormantCondition(cutoff: Date | null): Expression<SqlBool> {
  if (cutoff === null) return sql<SqlBool>`(users.is_active and users.dormancy_warned_at is not null)`;
  return sql<SqlBool>`(users.is_active and (users.dormancy_warned_at is not null
    or (users.dormancy_warned_at is null and ${ACTIVITY} <= ${cutoff}::timestamptz)))`;
}


/**
 * The number of accounts dormant at `cutoff` (dormantCondition), less `excludeUserId`'s if it is one, without reading
 * them: from the counters of migration 0031 (active accounts by the UTC day of their activity, the warned ones on the
 * day '-infinity'), the days before the cut-off's, plus the accounts of that day up to the cut-off, a range of
 * users_dormancy_activity_idx. With the warning off (no cut-off): the warned ones alone.
 */
export function dormantTotalQuery(cutoff: Date | null, excludeUserId: string | null): RawBuilder<{ total: number }> {
  const self = excludeUserId ? sql`- (select count(*) from users where users.id = ${excludeUserId}::uuid and ${dormantCondition(cutoff)})` : sql``;
  if (cutoff === null) return sql<{ total: number }>`select ((select coalesce(sum(c.n), 0) from user_dormancy_day_counts as c where c.day = '-infinity') ${self})::bigint as total`;
  const dayStart = new Date(Math.floor(cutoff.getTime() / DAY_MS) * DAY_MS);
  return sql<{ total: number }>`select (
      (select coalesce(sum(c.n), 0) from user_dormancy_day_counts as c where c.day < (${dayStart}::timestamptz at time zone 'UTC')::date)
      + (select count(*) from users where users.is_active and users.dormancy_warned_at is null
           and ${ACTIVITY} >= ${dayStart}::timestamptz and ${ACTIVITY} <= ${cutoff}::timestamptz)
      ${self})::bigint as total`;
}

/** dormantTotalQuery's total. */
export async function countDormant(db: Db, cutoff: Date | null, excludeUserId: string | null = null): Promise<number> {
  const { rows } = await dormantTotalQuery(cutoff, excludeUserId).execute(db);
  return Number(rows[0]!.total);
}

export interface WarnedRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  last_login_at: Date | null;
  activity: Date;
}

/**
 * Marks warned, at `now`, up to `limit` active accounts not warned whose period started at `cutoff` or before, the
 * longest unused first; rows another transaction holds are left to the next batch. Answers them.
 */
export async function markDormancyWarnings(trx: Transaction<Database>, cutoff: Date, now: Date, limit: number): Promise<WarnedRow[]> {
  // The batch is picked once (a materialized CTE): a subquery under IN may be run again by the plan and pick more.
  const { rows } = await sql<WarnedRow>`
    with picked as materialized (
      select users.id from users
      where users.is_active and users.dormancy_warned_at is null and ${ACTIVITY} <= ${cutoff}::timestamptz
      order by ${ACTIVITY}, users.id
      limit ${limit}
      for update skip locked)
    update users set dormancy_warned_at = ${now}::timestamptz
    from picked
    where users.id = picked.id and users.is_active and users.dormancy_warned_at is null
    returning users.id, users.email, users.first_name, users.last_name, users.last_login_at, ${ACTIVITY} as activity`.execute(trx);
  return rows;
}

export interface DueRow {
  id: string;
  /** When the step's period started: the warning, or the portal's deactivation. */
  since: Date;
  is_back_office: boolean;
}

/** Up to `limit` active accounts warned at `cutoff` or before, after `after` in (warning, id) order. */
export async function warnedBefore(db: Db, cutoff: Date, after: { since: Date; id: string } | null, limit: number): Promise<DueRow[]> {
  const { rows } = await sql<DueRow>`
    select users.id, users.dormancy_warned_at as since, users.user_type = 'BACKOFFICE' as is_back_office from users
    where users.is_active and users.dormancy_warned_at is not null and users.dormancy_warned_at <= ${cutoff}::timestamptz
      and ${after ? sql`(users.dormancy_warned_at, users.id) > (${after.since}::timestamptz, ${after.id}::uuid)` : sql`true`}
    order by users.dormancy_warned_at, users.id
    limit ${limit}`.execute(db);
  return rows;
}

/** Up to `limit` accounts the portal deactivated at `cutoff` or before, after `after` in (deactivation, id) order. */
export async function deactivatedBefore(db: Db, cutoff: Date, after: { since: Date; id: string } | null, limit: number): Promise<DueRow[]> {
  const { rows } = await sql<DueRow>`
    select users.id, users.dormancy_deactivated_at as since, users.user_type = 'BACKOFFICE' as is_back_office from users
    where not users.is_active and users.dormancy_deactivated_at is not null and users.dormancy_deactivated_at <= ${cutoff}::timestamptz
      and ${after ? sql`(users.dormancy_deactivated_at, users.id) > (${after.since}::timestamptz, ${after.id}::uuid)` : sql`true`}
    order by users.dormancy_deactivated_at, users.id
    limit ${limit}`.execute(db);
  return rows;
}

/**
 * Locks this account and records the portal's deactivation at `now` when it is still active and warned at `cutoff`
 * or before (no sign-in or reactivation since the list was read). Answers the warning's moment, or null.
 */
export async function claimDormancyDeactivation(trx: Transaction<Database>, id: string, cutoff: Date, now: Date): Promise<Date | null> {
  const row = await trx
    .updateTable('users')
    .set({ dormancy_deactivated_at: now })
    .where('id', '=', id)
    .where('is_active', '=', true)
    .where('dormancy_warned_at', '<=', cutoff)
    .returning('dormancy_warned_at')
    .executeTakeFirst();
  return row?.dormancy_warned_at ?? null;
}

/** Locks this account when the portal deactivated it at `cutoff` or before and it is still inactive; answers that moment, or null. */
export async function lockDormancyDeletion(trx: Transaction<Database>, id: string, cutoff: Date): Promise<{ since: Date; isBackOffice: boolean } | null> {
  const row = await trx
    .selectFrom('users')
    .select(['dormancy_deactivated_at', 'user_type'])
    .where('id', '=', id)
    .where('is_active', '=', false)
    .where('dormancy_deactivated_at', '<=', cutoff)
    .forUpdate()
    .executeTakeFirst();
  return row?.dormancy_deactivated_at ? { since: row.dormancy_deactivated_at, isBackOffice: row.user_type === 'BACKOFFICE' } : null;
}

/** Whether an administrator of SIREN `s` (on it or one of its SIRETs) is active and not warned. */
const activeAdministratorOf = (siren: ReturnType<typeof sql>) => sql<SqlBool>`exists (
  select 1 from role_assignments ra
  join roles r on r.id = ra.role_id
  join organizations o on o.id = ra.organization_id
  join users u on u.id = ra.user_id
  where r.code = any(${ADMINISTRATOR_CODES}::text[]) and (o.id = ${siren} or o.parent_id = ${siren})
    and u.is_active and u.dormancy_warned_at is null)`;

/** Forgets the notices of SIRENs that have an active administrator again: a next loss is told again. */
export async function clearAnsweredSirenNotices(db: Db): Promise<number> {
  const result = await sql`delete from dormancy_siren_notices n where ${activeAdministratorOf(sql`n.siren_id`)}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export interface UnmanagedSiren {
  id: string;
  code: string;
  name: string;
  /** Its administrators, all warned (their e-mail addresses). */
  administrators: string[];
}

/**
 * The SIRENs where one of these (just warned) people is an administrator and no administrator is active and not
 * warned any more, recorded as told at `now`: each is answered once while it lasts (a SIREN already recorded is not).
 */
export async function recordUnmanagedSirens(trx: Transaction<Database>, warnedIds: readonly string[], now: Date): Promise<UnmanagedSiren[]> {
  if (warnedIds.length === 0) return [];
  const { rows } = await sql<UnmanagedSiren>`
    with touched as (
      select distinct coalesce(o.parent_id, o.id) as siren_id
      from role_assignments ra
      join roles r on r.id = ra.role_id
      join organizations o on o.id = ra.organization_id
      where ra.user_id = any(${[...warnedIds]}::uuid[]) and r.code = any(${ADMINISTRATOR_CODES}::text[])
    ), recorded as (
      insert into dormancy_siren_notices (siren_id, notified_at)
      select t.siren_id, ${now}::timestamptz from touched t where not ${activeAdministratorOf(sql`t.siren_id`)}
      on conflict (siren_id) do nothing
      returning siren_id
    )
    select s.id, s.code, s.name,
      array(select distinct u.email from role_assignments ra
        join roles r on r.id = ra.role_id
        join organizations o on o.id = ra.organization_id
        join users u on u.id = ra.user_id
        where r.code = any(${ADMINISTRATOR_CODES}::text[]) and (o.id = s.id or o.parent_id = s.id) and u.is_active
        order by u.email) as administrators
    from recorded join organizations s on s.id = recorded.siren_id
    order by s.code`.execute(trx);
  return rows;
}
