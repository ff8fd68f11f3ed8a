// The account lifecycle's figures in SQL (issue 24): one statement, so one snapshot.
// - Now: for the back office, the users' kept totals by is_active (user_counts, migration 0004) less the warned
//   accounts (users_dormancy_warned_idx, migration 0022); for an employer administrator, the users of their list.
// - The journal's entries of the period (user.create: `started`) and moves (user.deactivate, user.reactivate,
//   user.delete, user.dormancy.end): for the back office, one range of audit_log_action_at_idx per action; for an
//   employer administrator, one range of audit_log_organizations_org_action_idx per organization and action
//   (migration 0028), less the entries of a back-office account (their users list leaves it out). Each move's previous
//   creation, reactivation, deactivation or end of a warning of the same account (audit_log_entity_at_idx) dates the
//   entry into its source state; the account's row, when it is still there, tells whether a person's deactivation
//   left a warned account (a deactivation keeps the warning; a reactivation clears it). A sign-in that ended a
//   warning (user.dormancy.end, since migration 0035) and a deletion of a warned account record the warning's
//   moment (changes.dormancyWarnedAt), which dates their time in dormantWarned.
// - The warnings of the period: those still on record (dormancy_warned_at in the period: users_dormancy_warned_at_idx,
//   migration 0032), with the time since the account's latest sign-in, creation or reactivation (the dormancy clock);
//   and those a sign-in, a reactivation or a deletion has since ended, which its entry records (counted, not timed:
//   the clock they started from is gone with them). An ended warning's entry comes after it, so within the period.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { periodChangesAt } from '../../db/kept-answers.ts';
import type { Database } from '../../db/schema.ts';
import { organizationActionsCopied } from '../audit/audit-backfill.repository.ts';
import { userFilter } from '../users/users-list.repository.ts';
import type { AccountFiguresScope } from './workflow-figures.policy.ts';

export type AccountMover = 'person' | 'system' | null;

export interface AccountFiguresRow {
  kind: 'state' | 'started' | 'move' | 'warn';
  /** A state's key ('active', 'dormantWarned', 'deactivated'), or a move's source state. */
  source: string | null;
  target: string | null;
  mover: AccountMover;
  n: number;
  median: number | null;
}

/** The journal's moves of an account; a creation is an entry (`started`), and dates the time active before a move. */
const MOVES = ['user.deactivate', 'user.reactivate', 'user.delete', 'user.dormancy.end'];
const ENTERING = ['user.create', 'user.reactivate', 'user.deactivate', 'user.dormancy.end'];
/** The moves whose entry records the warning they ended (changes.dormancyWarnedAt, since migration 0035). */
const RECORDING_WARNING = ['user.delete', 'user.dormancy.end', 'user.reactivate'];

/** The ids of the users of the caller's list (listUsers with includeInactive), or null for every user. */
function usersInScope(db: Kysely<Database>, scope: AccountFiguresScope) {
  if (scope.kind === 'all') return null;
  return db.selectFrom('users').select('users.id').where((eb) => userFilter(eb, { includeInactive: true, scope: scope.reach, sort: 'name', order: 'asc' }));
}

/**
 * The journal's entries of the period about accounts with one of these actions, within the scope, with the warning
 * an entry recorded (`recorded_warning`). An employer administrator's are read from the copy of each entry's action
 * beside its organizations once that copy is whole (`actionsCopied`, migration 0028); until its backfill is through,
 * from the entries of their organizations' period. Theirs leave out a back-office account's entries, as their users
 * list leaves the account out: the account's row says so, or for a deleted one its deletion's entry (changes.userType,
 * since migration 0035; its earlier entries, the row gone, count).
 */
function entriesOf(scope: AccountFiguresScope, actions: readonly string[], from: Date, to: Date, actionsCopied: boolean): RawBuilder<unknown> {
  const inPeriod = sql`a.at >= ${from}::timestamptz and a.at < ${to}::timestamptz`;
  // The changes read (detoasted) only for the entries that may record a warning.
  const columns = sql`a.id, a.at, a.action, a.entity_id, a.actor_id,
    case when a.action = any(${RECORDING_WARNING}::text[]) then a.changes -> 'dormancyWarnedAt' ->> 'before' end as recorded_warning`;
  if (scope.kind === 'all') {
    return sql`select ${columns} from audit_log a
      where a.action = any(${actions}::text[]) and ${inPeriod} and a.entity_type = 'user'`;
  }
  const organizations = [...scope.reach.organizationIds];
  const copiedAction = actionsCopied ? sql`and o.action = any(${actions}::text[])` : sql``;
  return sql`select ${columns} from audit_log a
    where a.id in (select o.audit_id from audit_log_organizations o
                    where o.organization_id = any(${organizations}::uuid[]) ${copiedAction}
                      and o.at >= ${from}::timestamptz and o.at < ${to}::timestamptz)
      and a.action = any(${actions}::text[]) and ${inPeriod} and a.entity_type = 'user'
      and not exists (select 1 from users b where b.id = case when a.entity_type = 'user' then a.entity_id::uuid end and b.user_type = 'BACKOFFICE')
      and case when a.action = 'user.delete' then (a.changes -> 'userType' ->> 'before') is distinct from 'BACKOFFICE' else true end`;
}

function statesNow(scope: AccountFiguresScope, inScope: ReturnType<typeof usersInScope>): RawBuilder<unknown> {
  if (inScope === null || scope.kind === 'all') {
    return sql`select 'state' as kind, s.source, null as target, null as mover, s.n, null::int as median from (
        select 'active' as source, (select coalesce(sum(c.n), 0) from user_counts c where c.is_active)::int
                                   - (select count(*) from users u where u.is_active and u.dormancy_warned_at is not null)::int as n
        union all select 'dormantWarned', (select count(*) from users u where u.is_active and u.dormancy_warned_at is not null)::int
        union all select 'deactivated', (select coalesce(sum(c.n), 0) from user_counts c where not c.is_active)::int) s`;
  }
  return sql`select 'state' as kind, s.source, null as target, null as mover, s.n, null::int as median from (
      select count(*) filter (where u.is_active and u.dormancy_warned_at is null)::int as active,
             count(*) filter (where u.is_active and u.dormancy_warned_at is not null)::int as warned,
             count(*) filter (where not u.is_active)::int as deactivated
        from users u where u.id in (${inScope})) c,
      lateral (values ('active', c.active), ('dormantWarned', c.warned), ('deactivated', c.deactivated)) as s (source, n)`;
}

export async function readAccountFigures(db: Kysely<Database>, scope: AccountFiguresScope, from: Date, to: Date): Promise<AccountFiguresRow[]> {
  const actionsCopied = scope.kind === 'all' || (await organizationActionsCopied(db));
  // Its estimated cost (a lookup per move) makes PostgreSQL compile it (JIT): 335 of 633 ms on the 1M benchmark
  // database, for a statement read once and then kept (workflow-figures.service.ts). Within the caller's transaction.
  await sql`set local jit = off`.execute(db);
  const { rows } = await accountFiguresQuery(db, scope, from, to, actionsCopied).execute(db);
  return rows.map((row) => ({ ...row, n: Number(row.n), median: row.median === null ? null : Number(row.median) }));
}

/** The statement itself (the benchmark's EXPLAIN reads it too). */
export function accountFiguresQuery(db: Kysely<Database>, scope: AccountFiguresScope, from: Date, to: Date, actionsCopied = true): RawBuilder<AccountFiguresRow> {
  const inScope = usersInScope(db, scope);
  const scoped = inScope === null ? sql`true` : sql`u.id in (${inScope})`;
  return sql<AccountFiguresRow>`
    with e as materialized (${entriesOf(scope, MOVES, from, to, actionsCopied)}),
    moves as (
      select
        case when e.action = 'user.reactivate' then 'deactivated'
             when e.action = 'user.dormancy.end' then 'dormantWarned'
             when e.action = 'user.deactivate' and (e.actor_id is null or (case when nx.found then nx.warned is not null else not u.is_active and u.dormancy_warned_at is not null end)) then 'dormantWarned'
             when e.action = 'user.deactivate' then 'active'
             when e.actor_id is null or p.action = 'user.deactivate' then 'deactivated'
             when e.recorded_warning is not null then 'dormantWarned'
             else 'active' end as source,
        case e.action when 'user.reactivate' then 'active' when 'user.dormancy.end' then 'active' when 'user.deactivate' then 'deactivated' else 'deleted' end as target,
        case when e.action in ('user.reactivate', 'user.dormancy.end') then null when e.actor_id is null then 'system' else 'person' end as mover,
        e.at, p.action as previous, p.at as previous_at,
        case when nx.found then nx.warned else coalesce(u.dormancy_warned_at, e.recorded_warning::timestamptz) end as warned_at
      from e
      -- Each looked up by its key, and only where it tells something: the row for a deactivation (a person's: was the
      -- account warned; the portal's: since when), the previous entry for every other move but the end of a warning
      -- (its entry records the warning).
      left join lateral (select users.is_active, users.dormancy_warned_at from users where users.id = e.entity_id::uuid and e.action = 'user.deactivate' limit 1) u on true
      -- A deactivation's warning, once a reactivation or a deletion has ended it (the row no longer holds it): the next
      -- of those entries records it, or that there was none (entries written since migration 0035's version).
      left join lateral (
        select true as found, (n.changes -> 'dormancyWarnedAt' ->> 'before')::timestamptz as warned from audit_log n
         where e.action = 'user.deactivate' and n.entity_type = 'user' and n.entity_id = e.entity_id
           and n.action in ('user.reactivate', 'user.delete') and (n.at, n.id) > (e.at, e.id)
         order by n.at, n.id limit 1) nx on true
      left join lateral (
        select p.action, p.at from audit_log p
         where p.entity_type = 'user' and p.entity_id = e.entity_id and p.action = any(${ENTERING}::text[])
           and (p.at, p.id) < (e.at, e.id) and not (e.action = 'user.deactivate' and e.actor_id is null) and e.action <> 'user.dormancy.end'
         order by p.at desc, p.id desc limit 1) p on true
    ),
    timed as (
      select m.source, m.target, m.mover,
        date_part('epoch', m.at - case
          when m.source = 'dormantWarned' then m.warned_at
          when m.source = 'deactivated' and m.previous = 'user.deactivate' then m.previous_at
          when m.source = 'active' and m.previous in ('user.create', 'user.reactivate', 'user.dormancy.end') then m.previous_at end) as seconds
      from moves m
    )
    ${statesNow(scope, inScope)}
    union all
    select 'started', null, null, null, count(*)::int, null from (${entriesOf(scope, ['user.create'], from, to, actionsCopied)}) c
    union all
    select 'move', t.source, t.target, t.mover, count(*)::int, round(percentile_cont(0.5) within group (order by t.seconds))::int
      from timed t group by t.source, t.target, t.mover
    union all
    select 'warn', 'active', 'dormantWarned', 'system',
           count(*)::int + (select count(*) from e where e.recorded_warning::timestamptz >= ${from}::timestamptz and e.recorded_warning::timestamptz < ${to}::timestamptz)::int,
           round(percentile_cont(0.5) within group (order by date_part('epoch', u.dormancy_warned_at - greatest(u.last_login_at, u.created_at, u.reactivated_at))))::int
      from users u
     where u.dormancy_warned_at >= ${from}::timestamptz and u.dormancy_warned_at < ${to}::timestamptz and ${scoped}`;
}

/**
 * The earliest moment at which the clock alone changes the figures of a period `days` long ending at `to`: an entry
 * of the journal's account actions, or a warning, leaving the period at its start or, dated after `to`, entering it;
 * null when none will. Read for everyone whatever the scope (a caller's entries are among them, so the moment is never
 * later than theirs), from the first entry of each range of audit_log_action_at_idx and users_dormancy_warned_at_idx.
 * The period's length in seconds (periodChangesAt).
 */
export function readAccountFiguresChange(db: Kysely<Database>, from: Date, to: Date): Promise<Date | null> {
  const firstEntry = (after: Date) => sql`(select min(f.at) from unnest(${[...MOVES, 'user.create']}::text[]) as s (action),
      lateral (select a.at from audit_log a where a.action = s.action and a.at >= ${after}::timestamptz and a.entity_type = 'user'
               order by a.at limit 1) as f)`;
  const firstWarning = (after: Date) => sql`(select min(u.dormancy_warned_at) from users u where u.dormancy_warned_at >= ${after}::timestamptz)`;
  // An ended warning leaves the period at its own moment, before the entry that recorded it (written after it).
  const firstEndedWarning = (after: Date) => sql`(select min(w.at) from unnest(${RECORDING_WARNING}::text[]) as s (action),
      lateral (select (a.changes -> 'dormancyWarnedAt' ->> 'before')::timestamptz as at from audit_log a
               where a.action = s.action and a.at >= ${after}::timestamptz and a.entity_type = 'user') as w
      where w.at >= ${after}::timestamptz)`;
  return periodChangesAt(db, from, to, [firstEntry, firstWarning, firstEndedWarning]);
}
