// The requests' lifecycle in SQL (issue 22): a person's own requests, cancelling, expiring, and what the reminders read.
// Every move is a conditional UPDATE (… WHERE status = 'PENDING'): of two moves at once, exactly one wins.
import { sql, type SqlBool, type Kysely, type Transaction } from 'kysely';
import { pageOffset, type PageRequest } from '../../core/pages.ts';
import type { Database, InvitationRow, InvitationStatus } from '../../db/schema.ts';
import { INVITATION_COLUMNS, INVITATION_STATUSES, type InvitationPage } from './invitations.repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * created_at no later than `moment`, as the services read it: to the millisecond (a JavaScript date), the
 * database's microseconds aside, so that a job moves exactly the requests a decision calls past their period.
 */
const atOrBefore = (moment: Date) => new Date(moment.getTime() + 1);

/**
 * The requests `senderId` made, newest first (invitations_sender_created_idx), in these statuses (empty or all: every
 * one), on these organizations only (null: any).
 */
export async function listInvitationsMadeBy(
  db: Kysely<Database>,
  senderId: string,
  query: PageRequest & { statuses: readonly InvitationStatus[]; organizationIds: readonly string[] | null },
): Promise<InvitationPage> {
  const base = madeBy(db, senderId, query);
  const total = await countInvitationsMadeBy(db, senderId, query);
  const offset = pageOffset(query);
  if (total === 0 || offset >= total) return { rows: [], total };
  const rows = await base
    .select(INVITATION_COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(sql.lit(query.pageSize))
    .$if(offset > 0, (q) => q.offset(sql.lit(offset)))
    .execute();
  return { rows, total };
}

type MadeByQuery = { statuses: readonly InvitationStatus[]; organizationIds: readonly string[] | null };

function madeBy(db: Kysely<Database>, senderId: string, query: MadeByQuery) {
  const statuses = [...new Set(query.statuses)];
  const filtered = statuses.length > 0 && statuses.length < INVITATION_STATUSES.length;
  return db
    .selectFrom('invitations')
    .where('sender_user_id', '=', senderId)
    .$if(filtered, (q) => q.where('status', 'in', statuses))
    .$if(query.organizationIds !== null, (q) =>
      q.where(sql<SqlBool>`exists (select 1 from organizations o where o.code = invitations.organization_code and o.id = any(${[...(query.organizationIds ?? [])]}::uuid[]))`),
    );
}

/** The total of listInvitationsMadeBy (GET /invitations/mine, and the Accueil's count of one's pending requests). */
export async function countInvitationsMadeBy(db: Kysely<Database>, senderId: string, query: MadeByQuery): Promise<number> {
  return Number((await madeBy(db, senderId, query).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total);
}

/** Cancels a request still pending; undefined when it no longer is. */
export function cancelPending(trx: Transaction<Database>, id: number, by: { userId: string; email: string }, reason: string | null) {
  return trx
    .updateTable('invitations')
    .set({
      status: 'CANCELLED',
      cancelled_by_user_id: by.userId,
      cancelled_by_email: by.email,
      cancellation_reason: reason,
      processed_at: sql<Date>`greatest(now(), created_at)`,
    })
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .returning(INVITATION_COLUMNS)
    .executeTakeFirst();
}

/**
 * Marks EXPIRED at most `batch` pending requests made before `madeBefore` (their period passed), rows another
 * transaction holds skipped; each one's moment is its creation plus `expiryDays`. Answers the rows expired.
 */
export async function expirePending(trx: Transaction<Database>, madeBefore: Date, expiryDays: number, batch: number): Promise<InvitationRow[]> {
  return trx
    .updateTable('invitations')
    .set({ status: 'EXPIRED', processed_at: sql<Date>`created_at + make_interval(days => ${expiryDays}::int)` })
    .where('id', 'in', duePending(trx, { before: madeBefore }, batch))
    .where('status', '=', 'PENDING')
    .returning(INVITATION_COLUMNS)
    .execute();
}

/** The ids of at most `batch` pending requests made in this span (oldest first, unreminded ones only if asked), locked, rows held elsewhere skipped. */
function duePending(trx: Transaction<Database>, made: { before: Date; after?: Date }, batch: number, unreminded = false) {
  return trx
    .selectFrom('invitations')
    .select('id')
    .where('status', '=', 'PENDING')
    .where('created_at', '<', atOrBefore(made.before))
    .$if(made.after !== undefined, (q) => q.where('created_at', '>=', atOrBefore(made.after!)))
    .$if(unreminded, (q) => q.where('expiry_reminder_sent_at', 'is', null))
    .orderBy('created_at')
    .limit(batch)
    .forUpdate()
    .skipLocked();
}

/** Pending requests made before `madeBefore`, oldest first (at most `limit`), and how many there are. */
export async function pendingMadeBefore(db: Db, madeBefore: Date, limit: number): Promise<{ rows: InvitationRow[]; total: number }> {
  const base = db.selectFrom('invitations').where('status', '=', 'PENDING').where('created_at', '<', atOrBefore(madeBefore));
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total);
  const rows = total === 0 ? [] : await base.select(INVITATION_COLUMNS).orderBy('created_at').orderBy('id').limit(limit).execute();
  return { rows, total };
}

/**
 * Marks as reminded at most `batch` pending requests made between `madeAfter` (excluded: their period passed)
 * and `madeBefore` (their expiry near) whose requester was not told yet, rows another transaction holds
 * skipped: each is reminded once. Answers the rows marked.
 */
export async function markExpiryReminders(trx: Transaction<Database>, made: { after: Date; before: Date }, now: Date, batch: number): Promise<InvitationRow[]> {
  return trx
    .updateTable('invitations')
    .set({ expiry_reminder_sent_at: now })
    .where('id', 'in', duePending(trx, made, batch, true))
    .where('status', '=', 'PENDING')
    .where('expiry_reminder_sent_at', 'is', null)
    .returning(INVITATION_COLUMNS)
    .execute();
}

/** Records the digest of `day` (YYYY-MM-DD, Europe/Paris); false when it was recorded already (sent once a day). */
export async function recordDigest(trx: Transaction<Database>, day: string, at: Date, requests: number, recipients: number): Promise<boolean> {
  const row = await trx
    .insertInto('invitation_digests')
    .values({ day, sent_at: at, requests, recipients })
    .onConflict((oc) => oc.column('day').doNothing())
    .returning(sql<string>`day::text`.as('day'))
    .executeTakeFirst();
  return row !== undefined;
}

/** The e-mails of the back office's active users holding USER_CREATE (those who decide requests), in order. */
export async function backOfficeDeciders(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .innerJoin('user_permissions', 'user_permissions.user_id', 'users.id')
    .select('users.email')
    .distinct()
    .where('users.user_type', '=', 'BACKOFFICE')
    .where('users.is_active', '=', true)
    .where('user_permissions.permission_code', '=', 'USER_CREATE')
    .orderBy('users.email')
    .execute();
  return rows.map((r) => r.email);
}

/** The sign-in subjects of these users (those who have one), by id: their rights are then read as a request's. */
export async function subjectsOf(db: Db, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'auth_id']).where('id', 'in', [...userIds]).where('auth_id', 'is not', null).execute();
  return new Map(rows.map((r) => [r.id, r.auth_id!]));
}
