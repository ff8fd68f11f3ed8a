// What the portal holds about one person, read for their data on request (issue 23): the account row, the roles
// held, the requests made by and for them, the e-mails sent to their addresses. The journal's entries are read by
// the journal's own code (audit.service.ts journalEntriesAbout). SQL only.
import { sql, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { Database, InvitationStatus, InvitationType, OrganizationType, UserRow } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The account as the export reads it: every column but the sign-in subject and the version. */
export type PersonRow = Pick<
  UserRow,
  | 'id' | 'email' | 'pending_email' | 'first_name' | 'last_name' | 'job_title' | 'phone_number' | 'mobile_phone' | 'street' | 'postal_code' | 'city'
  | 'metadata' | 'user_type' | 'is_active' | 'last_login_at' | 'created_at' | 'updated_at' | 'invitation_sent_at'
>;

export interface PersonRoleRow {
  organization_id: string;
  organization_code: string;
  organization_name: string;
  organization_type: OrganizationType;
  role_code: string;
  role_name: string;
  inherits_to_children: boolean;
  created_at: Date;
}

export interface PersonRequestRow {
  id: number;
  invitation_type: InvitationType;
  status: InvitationStatus;
  organization_code: string;
  organization_name: string;
  role_code: string;
  role_name: string;
  invitee_email: string;
  sender_email: string;
  created_at: Date;
  processed_at: Date | null;
  validator_email: string | null;
  rejection_reason: string | null;
  cancelled_by_email: string | null;
  cancellation_reason: string | null;
}

export interface PersonEmailRow {
  created_at: Date;
  sent_at: Date | null;
  recipient: string;
  subject: string;
  status: 'PENDING' | 'SENT' | 'FAILED';
  body: string;
}

/** The account as stored (pending_email as stored too, whether its link is still good or not). */
export async function findPerson(db: Db, id: string): Promise<PersonRow | undefined> {
  return db
    .selectFrom('users')
    .select([
      'id', 'email', 'pending_email', 'first_name', 'last_name', 'job_title', 'phone_number', 'mobile_phone', 'street', 'postal_code', 'city',
      'metadata', 'user_type', 'is_active', 'last_login_at', 'created_at', 'updated_at', 'invitation_sent_at',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Every role the person holds, with its organization and since when, by organization code then role code. */
export async function personRoles(db: Db, userId: string): Promise<PersonRoleRow[]> {
  return db
    .selectFrom('role_assignments as ra')
    .innerJoin('organizations as o', 'o.id', 'ra.organization_id')
    .innerJoin('roles as r', 'r.id', 'ra.role_id')
    .where('ra.user_id', '=', userId)
    .select(['o.id as organization_id', 'o.code as organization_code', 'o.name as organization_name', 'o.type as organization_type', 'r.code as role_code', 'r.name as role_name', 'ra.inherits_to_children', 'ra.created_at'])
    .orderBy('o.code')
    .orderBy('r.code')
    .execute();
}

export async function personPermissions(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('user_permissions').select('permission_code').where('user_id', '=', userId).orderBy('permission_code').execute();
  return rows.map((r) => r.permission_code);
}

/** The requests the person made (`made`) or that were made for them, by account or by one of their addresses (`received`), newest first. */
export async function personRequests(db: Db, userId: string, emails: readonly string[]): Promise<{ made: PersonRequestRow[]; received: PersonRequestRow[] }> {
  const lowered = emails.map((e) => e.toLowerCase());
  const rows = await db
    .selectFrom('invitations')
    .select([
      'id', 'invitation_type', 'status', 'organization_code', 'organization_name', 'role_code', 'role_name', 'invitee_email', 'sender_email', 'created_at',
      'processed_at', 'validator_email', 'rejection_reason', 'cancelled_by_email', 'cancellation_reason', 'sender_user_id', 'invitee_user_id',
    ])
    .where((eb) => eb.or([eb('sender_user_id', '=', userId), eb('invitee_user_id', '=', userId), sql<SqlBool>`lower(invitee_email) = any(${lowered}::text[])`]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const strip = ({ sender_user_id: _s, invitee_user_id: _i, ...row }: (typeof rows)[number]): PersonRequestRow => ({ ...row, id: Number(row.id) });
  return {
    made: rows.filter((r) => r.sender_user_id === userId).map(strip),
    received: rows.filter((r) => r.invitee_user_id === userId || lowered.includes(r.invitee_email.toLowerCase())).map(strip),
  };
}

/**
 * The e-mails of the outbox addressed to the person's confirmed address, and at the address awaiting confirmation
 * only the confirmation links' e-mails that name their confirmed address (the portal wrote those for them; anything
 * else there may be another person's), newest first.
 */
export async function personEmails(db: Db, email: string, pendingEmail: string | null): Promise<PersonEmailRow[]> {
  const theirs = sql<SqlBool>`lower(recipient) = lower(${email})`;
  const confirmation = sql<SqlBool>`(lower(recipient) = lower(${pendingEmail}::text) and kind = 'email.change.confirm' and strpos(lower(body), lower(${email})) > 0)`;
  return db
    .selectFrom('outbox')
    .select(['created_at', 'sent_at', 'recipient', 'subject', 'status', 'body'])
    .where(pendingEmail ? sql<SqlBool>`(${theirs} or ${confirmation})` : theirs)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
