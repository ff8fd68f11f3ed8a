// Exact totals of the lists without counting a million rows on every page (issue 8), in one statement:
// - unfiltered lists (users by is_active, invitations by status; organizations by type and membership, 0020): the counters of migration 0004, kept
//   by triggers in the same transactions as the rows;
// - filtered lists: count(*) once, then kept in this process for as long as the database's list version
//   (migration 0004: bumped by every statement that may change such a total) is the one it was counted at.
//   The version and the count are read in the same statement, hence the same snapshot: a kept total is
//   the exact total of the current data. Page 2, 3… of a search, and the same search again, cost a
//   version check instead of a count. Requests of the same total arriving while it is being read (a burst of
//   people, or one person's pages, searching the same common term) wait for that one statement instead of
//   each counting the same rows again: without it, 32 counts of 1.2 million journal entries at once took
//   more than the statement timeout each (issue 21's benchmark).
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { PREPARE_ANYWAY } from './database.ts';
import { KeptValues, listsVersion } from './kept-values.ts';

export { listsVersion } from './kept-values.ts';
import type { Database } from './schema.ts';

export type ListName = 'users' | 'invitations' | 'journal' | 'organizations' | 'dormancy';

interface KeptTotal {
  version: number;
  total: number;
  /** A total that moves with the clock (TotalClock): the moments it holds for, [from, until) in ms. */
  from?: number;
  until?: number;
}

/**
 * A total whose condition holds of a row once one of its moments is at or before a cut-off that follows the clock
 * (now − lag): dormant accounts, expired set-up links. Kept like the others, and besides only from the moment it
 * was counted until the earliest moment `next` of a row not yet in crosses the cut-off. Counted and bounded in the
 * same statement (the same snapshot); a change of the rows themselves moves the lists' versions as for any total.
 */
export interface TotalClock {
  now: Date;
  /** How far the cut-off lies behind now, in ms. */
  lag: number;
  /** The kept total's key: the count's statement with its cut-off left out (which changes at every request). */
  key: string;
  /** The earliest moment, among the rows not yet in, whose crossing of the cut-off brings a row in; null: none. */
  next: RawBuilder<Date | null>;
}

/** The totals one server process keeps, least recently used first out (kept-values.ts). */
export class ListTotals extends KeptValues<KeptTotal> {
  /** What a search learnt besides its total (users-search-texts.repository.ts), with the lists' version it holds at, checked at each use. */
  readonly outlooks: KeptValues<{ version: number | null }>;

  constructor(capacity = 1_000) {
    super(capacity);
    this.outlooks = new KeptValues(capacity);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type CountQuery = SelectQueryBuilder<Database, any, { total: number }>;

/**
 * The total of a `select count(*) as total …` query: counted, or kept (see above) when `totals` is given, while the
 * versions of `lists` (summed) are those it was counted at and, with a `clock`, the time is within its bound.
 */
export async function exactTotal(
  db: Kysely<Database>,
  lists: ListName | readonly ListName[],
  count: CountQuery,
  totals: ListTotals | null,
  clock: TotalClock | null = null,
): Promise<number> {
  if (!totals) return Number((await count.executeTakeFirstOrThrow()).total);
  const names = typeof lists === 'string' ? [lists] : [...lists];
  const key = totalKey(names, count, clock);
  return totals.once(key, async () => {
    const now = clock?.now.getTime();
    const found = totals.get(key);
    const kept = found && (now === undefined || (now >= found.from! && now < found.until!)) ? found : undefined;
    const keptVersion = kept?.version ?? -1;
    // When the version is the kept one, the count (an init plan) is never run. Prepared even with a search:
    // a hit then costs neither parsing nor planning the count (database.ts).
    const { rows } = await sql<{ version: number; total: number | null; next: Date | null }>`${sql.raw(PREPARE_ANYWAY)}
      select v.version, case when v.version = ${keptVersion} then null else ${count} end as total,
        ${clock ? sql`case when v.version = ${keptVersion} then null else (${clock.next}) end` : sql`null::timestamptz`} as next
      from (select ${listsVersion(names)} as version) as v`.execute(db);
    const row = rows[0]!;
    if (row.total === null && kept) return kept.total;
    const total = Number(row.total);
    const bound = clock ? { from: now!, until: row.next === null ? Number.POSITIVE_INFINITY : new Date(row.next).getTime() + clock.lag } : {};
    totals.set(key, { version: Number(row.version), total, ...bound });
    return total;
  });
}

function totalKey(names: readonly ListName[], count: CountQuery, clock: TotalClock | null): string {
  if (clock) return `${names.join('+')}\u0000${clock.key}`;
  const compiled = count.compile();
  return `${names.join('+')}\u0000${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
}

/**
 * The total exactTotal keeps of `count` (without a clock) and the lists' version it was counted at, if any: a caller
 * that read that version in the same statement as what it reads besides (listsVersion) may use the total without a
 * statement of its own, and know at which version a total just read by exactTotal holds.
 */
export function keptTotal(lists: ListName | readonly ListName[], count: CountQuery, totals: ListTotals | null): { version: number; total: number } | undefined {
  const found = totals?.get(totalKey(typeof lists === 'string' ? [lists] : [...lists], count, null));
  return found && { version: found.version, total: found.total };
}

/** The number of users, active ones only unless `includeInactive`, from the counters. */
export function userCount(includeInactive: boolean): RawBuilder<number> {
  return sql<number>`(select coalesce(sum(c.n), 0)::bigint from user_counts as c where c.is_active or ${includeInactive})`;
}

/** The number of invitations in these statuses (all when empty), from the counters. */
export function invitationCount(statuses: readonly string[]): RawBuilder<number> {
  return statuses.length === 0
    ? sql<number>`(select coalesce(sum(c.n), 0)::bigint from invitation_counts as c)`
    : sql<number>`(select coalesce(sum(c.n), 0)::bigint from invitation_counts as c where c.status in (${sql.join(statuses)}))`;
}

/**
 * Folds the counters' rows of connections that are gone, and the journal's counts of past days, into one row
 * each (migrations 0004, 0017), sums unchanged: at start-up and after the journal's hourly retention.
 */
export async function compactListTotals(db: Kysely<Database>): Promise<void> {
  await sql`select compact_list_totals()`.execute(db);
}
