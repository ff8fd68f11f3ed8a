// Kysely types of the tables of migrations/*.sql. Keep in step with the SQL.
import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely';

/** Read as Date (both drivers), written as Date or ISO text. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** Same, with a database default (now()). */
export type TimestampWithDefault = ColumnType<Date, Date | string | undefined, Date | string>;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** jsonb: read parsed; written as JSON text (JSON.stringify) so both drivers send the same thing. */
export type JsonbColumn = ColumnType<JsonValue | null, string | null | undefined, string | null>;

export type OrganizationType = 'SIREN' | 'SIRET';
export type RoleType = 'INTERNAL' | 'EXTERNAL';
export type UserType = 'BACKOFFICE' | 'ORGANIZATION';
/** Migration 0015: EXPIRED and CANCELLED (the request-lifecycle machine, rules/request-lifecycle.machine.ts). */
export type InvitationStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'EXPIRED' | 'CANCELLED';
export type InvitationType = 'NEW_ADMIN' | 'ROLE_ASSIGNMENT';

export interface OrganizationsTable {
  id: Generated<string>;
  code: string;
  name: string;
  type: OrganizationType;
  parent_id: string | null;
  parent_code: string | null;
  /** In the members' file (a SIRET: its SIREN's value); non-members stay, hidden where new access is chosen. */
  member: Generated<boolean>;
  /** A SIRET closed in Sirene (etatAdministratifEtablissement = F): kept, refused for new roles. */
  closed: Generated<boolean>;
  /** When the Sirene import last changed the row; null: never. */
  updated_at: Timestamp | null;
}

export interface PermissionsTable {
  code: string;
  label: string;
}

export interface RolesTable {
  id: GeneratedAlways<number>;
  code: string;
  name: string;
  type: RoleType;
  color: string | null;
}

export interface RolePermissionsTable {
  role_id: number;
  permission_code: string;
}

export interface UsersTable {
  id: Generated<string>;
  auth_id: string | null;
  email: string;
  first_name: string;
  last_name: string;
  job_title: string | null;
  phone_number: string | null;
  mobile_phone: string | null;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  metadata: string | null;
  user_type: UserType;
  is_active: Generated<boolean>;
  last_login_at: Timestamp | null;
  created_at: TimestampWithDefault;
  updated_at: TimestampWithDefault;
  version: Generated<number>;
  /** Migration 0010: a new address waiting for its owner's confirmation (email_change_tokens); null: none. */
  pending_email: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 0016: when the latest account set-up link was sent; links made before it no longer work. Null: none known. */
  invitation_sent_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Migration 0022 (dormant accounts): when the dormancy warning was sent; null again after a sign-in or a reactivation. */
  dormancy_warned_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Migration 0022: when the portal deactivated the account for dormancy; null after a reactivation, and after a person's deactivation. */
  dormancy_deactivated_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Migration 0022: the latest reactivation (the dormancy clock restarts from it). */
  reactivated_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Migration 0010: the links of pending e-mail changes; only the SHA-256 of each link's token is kept. */
export interface EmailChangeTokensTable {
  token_hash: string;
  user_id: string;
  email: string;
  expires_at: Timestamp;
  created_at: TimestampWithDefault;
}

export interface UserPermissionsTable {
  user_id: string;
  permission_code: string;
}

export interface RoleAssignmentsTable {
  id: Generated<string>;
  user_id: string;
  organization_id: string;
  role_id: number;
  inherits_to_children: Generated<boolean>;
  created_at: TimestampWithDefault;
}

export interface InvitationsTable {
  /** bigint; read as a number (see database.ts). */
  id: GeneratedAlways<number>;
  invitee_email: string;
  organization_id: string | null;
  organization_code: string;
  organization_name: string;
  role_id: number | null;
  role_code: string;
  role_name: string;
  status: Generated<InvitationStatus>;
  invitation_type: InvitationType;
  sender_user_id: string | null;
  sender_email: string;
  validator_user_id: string | null;
  validator_email: string | null;
  rejection_reason: string | null;
  metadata: JsonbColumn;
  created_at: TimestampWithDefault;
  processed_at: Timestamp | null;
  /** The portal account that held invitee_email when the request was made (null: none); set by a trigger (migration 0009). */
  invitee_user_id: Generated<string | null>;
  /** Migration 0015: who cancelled the request, and their reason (optional). */
  cancelled_by_user_id: Generated<string | null>;
  cancelled_by_email: Generated<string | null>;
  cancellation_reason: Generated<string | null>;
  /** Migration 0015: when the requester was told the request would expire (once). */
  expiry_reminder_sent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface IdentityAccountsTable {
  subject: string;
  email: string;
  display_name: string;
  password_hash: string | null;
  enabled: Generated<boolean>;
  created_at: TimestampWithDefault;
  /** Migration 0011: sessions and refresh tokens that began before this moment are refused by the local provider. */
  sessions_revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export type AuditAction =
  | 'user.create'
  | 'user.update'
  | 'user.roles'
  | 'user.deactivate'
  | 'user.reactivate'
  | 'user.delete'
  | 'user.email.request'
  | 'user.email.confirm'
  /** Migration 0016: a new account set-up link sent to a user who never signed in. */
  | 'user.invitation.resend'
  /** Migration 0035: a sign-in that ended a dormancy warning (by the person; changes.dormancyWarnedAt: the warning). */
  | 'user.dormancy.end'
  | 'invitation.create'
  | 'invitation.approve'
  | 'invitation.reject'
  /** Migration 0015: a request cancelled by its requester or the back office; a request expired (by the portal). */
  | 'invitation.cancel'
  | 'invitation.expire'
  /** Migration 0012: an export of a list (entity_type 'export'). */
  | 'users.export'
  | 'journal.export'
  /** Migration 0024: a person's data downloaded (by the back office or the person); entity: the person. */
  | 'personal-data.exported';

/** What an audit entry is about; 'export' (migration 0012) for an export of a list, its entity_id naming the list. */
export type AuditEntityType = 'user' | 'invitation' | 'export';

export interface AuditLogTable {
  id: GeneratedAlways<number>;
  at: TimestampWithDefault;
  actor_id: string | null;
  actor_email: string | null;
  action: AuditAction;
  entity_type: AuditEntityType;
  entity_id: string;
  organization_id: string | null;
  changes: ColumnType<JsonValue, string | undefined, string>;
  /** Migration 0013: the author's and the person's names when the entry was written, and the normalized search text. */
  actor_name: string | null;
  subject_name: string | null;
  search_text: Generated<string>;
  /** Migration 0014: the search text of the person or request concerned alone (without the author's); null until the backfill job reaches an older entry. */
  subject_search_text: string | null;
}

/** Migration 0013: every organization an audit entry concerns (siren_id: its SIREN, itself for a SIREN); `at` is the entry's. */
export interface AuditLogOrganizationsTable {
  audit_id: number;
  organization_id: string;
  siren_id: string;
  at: Timestamp;
  /** The entry's action (migration 0028; filled in by the trigger when not given, by the backfill for older rows). */
  action: Generated<string | null>;
}

export type OutboxKind =
  | 'account.invitation'
  | 'invitation.approved'
  | 'invitation.rejected'
  | 'email.change.confirm'
  | 'email.change.notice'
  /** Migration 0015: the back office's daily digest of requests pending too long; a requester told their request will expire. */
  | 'invitation.pending.digest'
  | 'invitation.expiring'
  /** Migration 0022: a person warned that their account will be deactivated for lack of sign-in; the back office told of a SIREN without an active administrator. */
  | 'account.dormancy.warning'
  | 'dormancy.siren.unmanaged';

export interface OutboxTable {
  id: GeneratedAlways<number>;
  created_at: TimestampWithDefault;
  kind: OutboxKind;
  recipient: string;
  subject: string;
  body: string;
  status: Generated<'PENDING' | 'SENT' | 'FAILED'>;
  attempts: Generated<number>;
  sent_at: Timestamp | null;
  last_error: string | null;
  /** 0003_outbox_retry.sql: when a PENDING row may next be tried (lease, back-off); null: at once. */
  next_attempt_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface SchemaMigrationsTable {
  name: string;
  applied_at: TimestampWithDefault;
  /** SHA-256 of the file's text as applied (server/db/migrate.ts); null only before the first run that fills it in. */
  checksum: string | null;
}

/** Migration 0015: the days (Europe/Paris) the back office's digest of requests pending too long was sent. */
export interface InvitationDigestsTable {
  day: string;
  sent_at: Timestamp;
  requests: number;
  recipients: number;
}

/** Migration 0006: the scheduled jobs' state (server/jobs/runner.ts). */
export interface ScheduledJobsTable {
  name: string;
  next_run_at: Timestamp;
  running_since: Timestamp | null;
  running_owner: string | null;
  last_started_at: Timestamp | null;
  last_finished_at: Timestamp | null;
  last_outcome: 'succeeded' | 'failed' | null;
  last_error: string | null;
}

/** Migration 0004: what searches count, kept by triggers on users (read only). */
export interface UserSearchTable {
  id: string;
  is_active: boolean;
  /** search_fold(first_name || ' ' || last_name) (migration 0019; lower() before it, until the backfill folds it) */
  name: string;
  /** search_fold(email) (likewise) */
  email: string;
  /** Whether name and email are folded, counted in user_search_gram_counts, and the sort keys below written. */
  folded: Generated<boolean>;
  /** lower(last_name || first_name), lower(email), last_login_at: the list's sort keys (null until folded). */
  name_key: string | null;
  email_key: string | null;
  last_login_at: Date | null;
  /** The ids of the roles the user holds, sorted (migration 0040). */
  roles: Generated<number[]>;
}

/** Where the backfill of migration 0019 stands (one row). */
export interface UserSearchBackfillTable {
  only_row: Generated<boolean>;
  after_id: string | null;
  done: boolean;
}

/** How many users' (inactive_only: inactive users') folded name or e-mail holds each string of 1 to 3 characters, per connection (migration 0019). */
export interface UserSearchGramCountsTable {
  gram: string;
  inactive_only: boolean;
  backend: number;
  n: ColumnType<number, number, number>;
}

/** Migration 0039: the words of each user's folded name and e-mail, with the list's sort keys, kept by triggers on user_search (read only). */
export interface UserSearchWordsTable {
  word: string;
  id: string;
  is_active: boolean;
  name_key: string;
  email_key: string;
  /** Its user's roles (migration 0040). */
  roles: number[];
  /** A word of four characters or more sharing four in a row with another word of its user (migration 0041). */
  overlapping: boolean;
}

/** How many users (inactive_only: inactive users) hold each word, per connection (migration 0039). */
export interface UserSearchWordCountsTable {
  word: string;
  inactive_only: boolean;
  backend: number;
  n: ColumnType<number, number, number>;
}

/** How many users (inactive_only: inactive users) holding a role hold each string of 1 to 3 characters, or each word, per connection (migration 0040). */
export type UserSearchRoleCountsTable<K extends 'gram' | 'word'> = { [key in K]: string } & {
  role_id: number;
  inactive_only: boolean;
  backend: number;
  n: ColumnType<number, number, number>;
};

/** Migration 0020: what the organizations' search reads, kept by triggers on organizations (read only). */
export interface OrganizationSearchTable {
  id: string;
  code: string;
  /** search_fold(organizations.name) */
  name: string;
  type: OrganizationType;
  member: boolean;
  parent_id: string | null;
}

/** Migration 0020: the number of organizations of each type and membership, per connection. */
export interface OrganizationCountsTable {
  backend: number;
  type: OrganizationType;
  member: boolean;
  n: ColumnType<number, number, number>;
}

/** Migration 0020: how many organizations' folded name or code holds each string of 1 to 3 characters, by type and membership, per connection. */
export interface OrganizationGramCountsTable {
  gram: string;
  type: OrganizationType;
  member: boolean;
  backend: number;
  n: ColumnType<number, number, number>;
}

/** Migration 0007: the API rate limit's and the sign-in throttle's counts, one row per key and window (server/db/rate-limit-hits.ts). */
export interface RateLimitHitsTable {
  key: string;
  count: number;
  expires_at: Timestamp;
}

/** Migration 0007: the local provider's models (server/dev-idp/oidc-adapter.ts). */
export interface OidcPayloadsTable {
  model: string;
  id: string;
  /** Written as JSON text (JSON.stringify), read parsed. */
  payload: ColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  consumed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Migration 0016: a job of one action on many users (POST /api/v2/users/bulk-actions). */
export type BulkActionKind = 'deactivate' | 'reactivate' | 'resendInvitation' | 'delete';

export interface BulkActionsTable {
  id: Generated<string>;
  actor_user_id: string;
  action: BulkActionKind;
  status: ColumnType<'running' | 'completed', 'running' | 'completed' | undefined, 'running' | 'completed'>;
  total: number;
  created_at: TimestampWithDefault;
  finished_at: Timestamp | null;
  lease_owner: string | null;
  lease_until: Timestamp | null;
}

/** Migration 0016: one person of a job's selection, and what became of them (null: not yet done). */
export interface BulkActionTargetsTable {
  bulk_action_id: string;
  position: number;
  user_id: string;
  outcome: 'succeeded' | 'refused' | null;
  reason: string | null;
  name: string | null;
  email: string | null;
  done_at: Timestamp | null;
  /** Migration 0018: unexpected failures of this person's action so far. */
  failures: Generated<number>;
}

/** Migration 0023: the pseudonym's number of each deleted person ('Utilisateur supprimé n° {number}'), from a sequence. */
export interface ErasedPersonsTable {
  user_id: string;
  number: ColumnType<number, number, never>;
  erased_at: TimestampWithDefault;
}

/** Migration 0022: the back office told that a SIREN has no active employer administrator left (once while it lasts). */
export interface DormancySirenNoticesTable {
  siren_id: string;
  notified_at: Timestamp;
}

export interface Database {
  erased_persons: ErasedPersonsTable;
  bulk_actions: BulkActionsTable;
  bulk_action_targets: BulkActionTargetsTable;
  audit_log: AuditLogTable;
  audit_log_organizations: AuditLogOrganizationsTable;
  email_change_tokens: EmailChangeTokensTable;
  outbox: OutboxTable;
  organizations: OrganizationsTable;
  organization_search: OrganizationSearchTable;
  organization_counts: OrganizationCountsTable;
  organization_gram_counts: OrganizationGramCountsTable;
  permissions: PermissionsTable;
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  users: UsersTable;
  user_search: UserSearchTable;
  user_search_backfill: UserSearchBackfillTable;
  user_search_gram_counts: UserSearchGramCountsTable;
  user_search_words: UserSearchWordsTable;
  user_search_word_counts: UserSearchWordCountsTable;
  user_search_words_backfill: UserSearchBackfillTable;
  user_search_gram_role_counts: UserSearchRoleCountsTable<'gram'>;
  user_search_word_role_counts: UserSearchRoleCountsTable<'word'>;
  user_search_roles_backfill: UserSearchBackfillTable;
  user_search_overlaps_backfill: UserSearchBackfillTable;
  user_permissions: UserPermissionsTable;
  role_assignments: RoleAssignmentsTable;
  invitations: InvitationsTable;
  invitation_digests: InvitationDigestsTable;
  dormancy_siren_notices: DormancySirenNoticesTable;
  identity_accounts: IdentityAccountsTable;
  schema_migrations: SchemaMigrationsTable;
  scheduled_jobs: ScheduledJobsTable;
  rate_limit_hits: RateLimitHitsTable;
  oidc_payloads: OidcPayloadsTable;
}

export type OrganizationRow = Selectable<OrganizationsTable>;
export type NewOrganization = Insertable<OrganizationsTable>;
export type RoleRow = Selectable<RolesTable>;
export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type RoleAssignmentRow = Selectable<RoleAssignmentsTable>;
export type NewRoleAssignment = Insertable<RoleAssignmentsTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type NewInvitation = Insertable<InvitationsTable>;
export type InvitationUpdate = Updateable<InvitationsTable>;
export type IdentityAccountRow = Selectable<IdentityAccountsTable>;
export type NewIdentityAccount = Insertable<IdentityAccountsTable>;
