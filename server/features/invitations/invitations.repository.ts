// Invitations (OpenAPI Invitation, InvitationList): reads, and the lookups a creation needs.
// A page costs two statements (total, rows) whatever its size. Decisions are in invitations-decisions.ts.
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import { pageOffset } from '../../api/pages.ts';
import { exactTotal, invitationCount, type ListTotals } from '../../db/list-totals.ts';
import type { Database, InvitationRow, InvitationStatus, InvitationType, OrganizationType, RoleType } from '../../db/schema.ts';

export interface InvitationDto {
  id: number;
  inviteeEmail: string;
  createdAt: string;
  processedAt: string | null;
  organizationCode: string;
  organizationName: string;
  organizationId: string | null;
  roleName: string;
  roleCode: string;
  status: InvitationStatus;
  invitationType: InvitationType;
  senderEmail: string | null;
  validatorEmail: string | null;
  rejectionReason: string | null;
}

export function toInvitationDto(row: InvitationRow): InvitationDto {
  return {
    id: row.id,
    inviteeEmail: row.invitee_email,
    createdAt: row.created_at.toISOString(),
    processedAt: row.processed_at ? row.processed_at.toISOString() : null,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    organizationId: row.organization_id,
    roleName: row.role_name,
    roleCode: row.role_code,
    status: row.status,
    invitationType: row.invitation_type,
    senderEmail: row.sender_email,
    validatorEmail: row.validator_email,
    rejectionReason: row.rejection_reason,
  };
}

export type InvitationSort = 'id' | 'email' | 'createdAt';

export interface InvitationListQuery {
  /** Empty or all three: every invitation. */
  statuses: readonly InvitationStatus[];
  /** Case-insensitive substring of the invitee email or of the organization code (SIREN or SIRET). */
  search?: string | undefined;
  sort: InvitationSort;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

export interface InvitationPage {
  rows: InvitationRow[];
  total: number;
}

/** LIKE pattern matching `text` anywhere, its wildcards taken literally (backslash is LIKE's default escape). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

type Eb = ExpressionBuilder<Database, 'invitations'>;

function matching(eb: Eb, query: Pick<InvitationListQuery, 'statuses' | 'search'>) {
  const conditions = [];
  const statuses = [...new Set(query.statuses)];
  if (statuses.length > 0 && statuses.length < 3) conditions.push(eb('status', 'in', statuses));
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
  const statuses = [...new Set(query.statuses)];
  const total = query.search?.trim()
    ? await exactTotal(db, 'invitations', db.selectFrom('invitations').select((eb) => eb.fn.countAll<number>().as('total')).where((eb) => matching(eb, query)), totals)
    : Number((await db.selectNoFrom([invitationCount(statuses.length < 3 ? statuses : []).as('total')]).executeTakeFirstOrThrow()).total);
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

const INVITATION_COLUMNS = [
  'id', 'invitee_email', 'organization_id', 'organization_code', 'organization_name', 'role_id', 'role_code', 'role_name', 'status', 'invitation_type',
  'sender_user_id', 'sender_email', 'validator_user_id', 'validator_email', 'rejection_reason', 'metadata', 'created_at', 'processed_at',
] as const satisfies readonly (keyof InvitationRow)[];

export async function findInvitation(db: Kysely<Database> | Transaction<Database>, id: number): Promise<InvitationRow | null> {
  return (await db.selectFrom('invitations').select(INVITATION_COLUMNS).where('id', '=', id).executeTakeFirst()) ?? null;
}

export interface OrganizationRef {
  id: string;
  code: string;
  name: string;
  type: OrganizationType;
}

export async function findOrganizationById(db: Kysely<Database>, id: string): Promise<OrganizationRef | null> {
  return (await db.selectFrom('organizations').select(['id', 'code', 'name', 'type']).where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function findOrganizationByCode(db: Kysely<Database>, code: string): Promise<OrganizationRef | null> {
  return (await db.selectFrom('organizations').select(['id', 'code', 'name', 'type']).where('code', '=', code).executeTakeFirst()) ?? null;
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
