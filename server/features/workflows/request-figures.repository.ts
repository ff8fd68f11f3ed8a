// The request lifecycle's figures in SQL (issue 24): one statement, so one snapshot: the requests by status now, the
// requests made in the period, and the moves out of PENDING in the period by status reached, with the median time the
// requests had been pending (processed_at - created_at: processed_at is the move's moment, written with its journal
// entry; for an expiry, the moment the period ended).
// For the back office the counts now are invitation_counts' (exact, kept by triggers: migration 0004); the period's
// rows are read from the indexes alone: invitations_created_sort_idx (made) and, one range per status reached,
// invitations_status_processed_idx (migration 0027). A requester's from invitations_sender_created_idx and
// invitations_sender_processed_idx.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { periodChangesAt } from '../../db/kept-answers.ts';
import type { Database, InvitationStatus } from '../../db/schema.ts';
import type { FiguresScope } from './workflow-figures.policy.ts';

export interface RequestFiguresRow {
  kind: 'state' | 'started' | 'move';
  status: InvitationStatus | null;
  n: number;
  median: number | null;
}

function scopeCondition(scope: FiguresScope): RawBuilder<unknown> {
  if (scope.kind === 'all') return sql`true`;
  return sql`i.sender_user_id = ${scope.userId}::uuid
    and exists (select 1 from organizations o where o.code = i.organization_code and o.id = any(${[...scope.organizationIds]}::uuid[]))`;
}

/** `moved`: the statuses a move out of PENDING reaches. */
export async function readRequestFigures(db: Kysely<Database>, scope: FiguresScope, moved: readonly InvitationStatus[], from: Date, to: Date): Promise<RequestFiguresRow[]> {
  const inScope = scopeCondition(scope);
  const statesNow =
    scope.kind === 'all'
      ? sql`select 'state' as kind, c.status, sum(c.n)::int as n, null::int as median from invitation_counts c group by c.status having sum(c.n) <> 0`
      : sql`select 'state' as kind, i.status, count(*)::int as n, null::int as median from invitations i where ${inScope} group by i.status`;
  const { rows } = await sql<RequestFiguresRow>`
    ${statesNow}
    union all
    select 'started', null, count(*)::int, null from invitations i where i.created_at >= ${from} and i.created_at < ${to} and ${inScope}
    union all
    select 'move', s.status, m.n, m.median
      from unnest(${[...moved]}::text[]) as s (status),
           lateral (select count(*)::int as n, round(percentile_cont(0.5) within group (order by date_part('epoch', i.processed_at - i.created_at)))::int as median
                      from invitations i
                     where i.status = s.status and i.processed_at >= ${from} and i.processed_at < ${to} and ${inScope}) as m
     where m.n > 0`.execute(db);
  return rows.map((row) => ({ ...row, n: Number(row.n), median: row.median === null ? null : Number(row.median) }));
}

/**
 * The earliest moment at which the clock alone changes the figures of a period `days` long ending at `to`: a request
 * made, or a move, leaving the period at its start (its moment plus the period), or one dated after `to` entering it;
 * null when none will. Read from the same indexes as the figures, the first entry of each range.
 */
export function readRequestFiguresChange(db: Kysely<Database>, scope: FiguresScope, moved: readonly InvitationStatus[], from: Date, to: Date): Promise<Date | null> {
  const inScope = scopeCondition(scope);
  const firstMade = (after: Date) => sql`(select min(i.created_at) from invitations i where i.created_at >= ${after} and ${inScope})`;
  const firstMove = (after: Date) => sql`(select min(m.at) from unnest(${[...moved]}::text[]) as s (status),
      lateral (select i.processed_at as at from invitations i where i.status = s.status and i.processed_at >= ${after} and ${inScope}
               order by i.processed_at limit 1) as m)`;
  return periodChangesAt(db, from, to, [firstMade, firstMove]);
}
