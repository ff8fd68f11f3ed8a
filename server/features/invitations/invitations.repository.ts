// Invitations (OpenAPI Invitation, InvitationList): reads, and the lookups a creation needs.
// A page costs two statements (total, rows) whatever its size. Decisions: invitations-decision.repository.ts.
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import { pageOffset } from '../../core/pages.ts';
import { exactTotal, invitationCount, type ListTotals } from '../../db/list-totals.ts';
import type { Database, InvitationRow, InvitationStatus, InvitationType, OrganizationType, RoleType } from '../../db/schema.ts';
import { containsPattern } from '../../db/like.ts';

export type InvitationSort = 'id' | 'email' | 'createdAt';

/** Every status (migration 0015): a list asking for all of them asks for nothing in particular. */
export const INVITATION_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'EXPIRED', 'CANCELLED'] as const satisfies readonly InvitationStatus[];
const EVERY_STATUS = INVITATION_STATUSES.length;

export interface InvitationListQuery {
  /** Empty or all of them: every invitation. */
  statuses: readonly InvitationStatus[];
  /** Case-insensitive substring of the invitee email or of the organization code (SIREN or SIRET). */
  search?: string | undefined;
  sort: InvitationSort;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
  /** Pending requests made at or before this moment only (the `waiting` filters: request-lifecycle.model.ts waitingMadeBefore). */
  pendingMadeBefore?: Date | undefined;
}

export interface InvitationPage {
  rows: InvitationRow[];
  total: number;
}


type Eb = ExpressionBuilder<Database, 'invitations'>;

function matching(eb: Eb, query: Pick<InvitationListQuery, 'statuses' | 'search' | 'pendingMadeBefore'>) {
  const conditions = [];
  const statuses = [...new Set(query.statuses)];
  // Known statuses are written as literals: page 1 is prepared, and a plan made for any status walked every request
  // newest first to find ten pending ones among 236,000 (9 ms a page on the 1M database, against 0.4 by the status).
  const known = statuses.every((status) => (INVITATION_STATUSES as readonly string[]).includes(status));
  if (statuses.length > 0 && statuses.length < EVERY_STATUS) conditions.push(eb('status', 'in', known ? statuses.map((status) => sql.lit(status)) : statuses));
  if (query.pendingMadeBefore) {
    // invitations_status_created_sort_idx; to the millisecond, as the lifecycle's jobs read it (created_at <= the moment).
    conditions.push(eb('status', '=', 'PENDING'));
    conditions.push(eb('created_at', '<', new Date(query.pendingMadeBefore.getTime() + 1)));
  }
  const search = query.search?.trim().toLowerCase();
  if (search) {
    // The expressions of the trigram indexes invitations_invitee_email_trgm_idx and invitations_organization_code_trgm_idx.
    const pattern = containsPattern(search);
    conditions.push(eb.or([eb(eb.fn('lower', ['invitee_email']), 'like', pattern), eb('organization_code', 'like', pattern)]));
  }
  return eb.and(conditions);
}

/**
 * One page and the exact total: two statements whatever the page size. Without a search the total comes
 * from the counters of migration 0004; with one, from a count kept while the invitations do not change
 * (list-totals.ts).
 */
export async function listInvitations(db: Kysely<Database>, query: InvitationListQuery, totals: ListTotals | null = null): Promise<InvitationPage> {
  const total = await invitationsTotal(db, query, totals);
  const offset = pageOffset(query);
  if (total === 0 || offset >= total) return { rows: [], total };
  // Columns named and the page's size and offset written in (literals): the first page of a size is one
  // text, prepared once per connection (database.ts), and the planner knows how few rows it reads.
  let rows = db.selectFrom('invitations').select(INVITATION_COLUMNS).where((eb) => matching(eb, query));
  const order = query.order;
  if (query.sort === 'email') rows = rows.orderBy(sql`lower(invitee_email)`, order);
  else if (query.sort === 'createdAt') rows = rows.orderBy('created_at', order);
  // The request number breaks ties, in the same direction: a stable order across pages.
  rows = rows.orderBy('id', order);
  return {
    rows: await rows
      .limit(sql.lit(query.pageSize))
      .$if(offset > 0, (q) => q.offset(sql.lit(offset)))
      .execute(),
    total,
  };
}

/**
 * The list's exact total: the counters without a search; with one, a count kept while the invitations do not change
 * (list-totals.ts); with pendingMadeBefore, a count of the pending requests' range of the index, every time (its
 * condition moves with the clock).
 */
export async function invitationsTotal(db: Kysely<Database>, query: Pick<InvitationListQuery, 'statuses' | 'search' | 'pendingMadeBefore'>, totals: ListTotals | null): Promise<number> {
  const statuses = [...new Set(query.statuses)];
  const count = () => db.selectFrom('invitations').select((eb) => eb.fn.countAll<number>().as('total')).where((eb) => matching(eb, query));
  if (query.pendingMadeBefore) return Number((await count().executeTakeFirstOrThrow()).total);
  if (query.search?.trim()) return exactTotal(db, 'invitations', count(), totals);
  return Number((await db.selectNoFrom([invitationCount(statuses.length < EVERY_STATUS ? statuses : []).as('total')]).executeTakeFirstOrThrow()).total);
}

export const INVITATION_COLUMNS = [
  'id', 'invitee_email', 'organization_id', 'organization_code', 'organization_name', 'role_id', 'role_code', 'role_name', 'status', 'invitation_type',
  'sender_user_id', 'sender_email', 'validator_user_id', 'validator_email', 'rejection_reason', 'metadata', 'created_at', 'processed_at', 'invitee_user_id',
  'cancelled_by_user_id', 'cancelled_by_email', 'cancellation_reason', 'expiry_reminder_sent_at',
] as const satisfies readonly (keyof InvitationRow)[];

export async function findInvitation(db: Kysely<Database> | Transaction<Database>, id: number): Promise<InvitationRow | null> {
  return (await db.selectFrom('invitations').select(INVITATION_COLUMNS).where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The request, locked until the transaction ends: its status cannot change under the move being decided. */
export async function lockInvitation(trx: Transaction<Database>, id: number): Promise<InvitationRow | null> {
  return (await trx.selectFrom('invitations').select(INVITATION_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst()) ?? null;
}

export interface OrganizationRef {
  id: string;
  code: string;
  name: string;
  type: OrganizationType;
  /** Marks of the Sirene import: a non-member or a closed SIRET takes no new request. */
  member: boolean;
  closed: boolean;
}

export async function findOrganizationById(db: Kysely<Database>, id: string): Promise<OrganizationRef | null> {
  return (await db.selectFrom('organizations').select(['id', 'code', 'name', 'type', 'member', 'closed']).where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function findOrganizationByCode(db: Kysely<Database>, code: string): Promise<OrganizationRef | null> {
  return (await db.selectFrom('organizations').select(['id', 'code', 'name', 'type', 'member', 'closed']).where('code', '=', code).executeTakeFirst()) ?? null;
}

export interface RoleRef {
  id: number;
  code: string;
  name: string;
  type: RoleType;
}

/** ORG_ADMIN is accepted as an alias of ADMIN_ADHERENT (spec §3). */
export async function findRoleByCode(db: Kysely<Database> | Transaction<Database>, code: string): Promise<RoleRef | null> {
  const wanted = code === 'ORG_ADMIN' ? 'ADMIN_ADHERENT' : code;
  return (await db.selectFrom('roles').select(['id', 'code', 'name', 'type']).where('code', '=', wanted).executeTakeFirst()) ?? null;
}

export interface ExistingUserRef {
  id: string;
  userType: 'BACKOFFICE' | 'ORGANIZATION';
}

/** The portal account of an email, case-insensitive (users_email_lower_key). */
export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<ExistingUserRef | null> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'user_type'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
  return row ? { id: row.id, userType: row.user_type } : null;
}

// ---------------------------------------------------------------------------------------------
// Writes, inside the caller's transaction.

export interface NewInvitationRow {
  inviteeEmail: string;
  invitationType: InvitationType;
  organization: OrganizationRef;
  role: RoleRef;
  sender: { userId: string; email: string };
  /** Kept as given (informative; an approval creating an account reads userProfile from it). */
  metadata: object | null;
}

export async function insertInvitation(trx: Transaction<Database>, input: NewInvitationRow): Promise<InvitationRow> {
  return trx
    .insertInto('invitations')
    .values({
      invitee_email: input.inviteeEmail.trim(),
      organization_id: input.organization.id,
      organization_code: input.organization.code,
      organization_name: input.organization.name,
      role_id: input.role.id,
      role_code: input.role.code,
      role_name: input.role.name,
      invitation_type: input.invitationType,
      sender_user_id: input.sender.userId,
      sender_email: input.sender.email,
      metadata: input.metadata === null ? null : JSON.stringify(input.metadata),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
