// Reading users: one user, their assignments, their permissions (the list: users-list.repository.ts).
import { sql, type CompiledQuery, type Expression, type ExpressionBuilder, type ExpressionWrapper, type InferResult, type Kysely, type SqlBool } from 'kysely';
import { ORGANIZATION_COLUMNS, toOrganizationDto, type OrganizationDto } from '../organizations/organizations.repository.ts';
import { rolePermissions } from '../roles/roles.repository.ts';
import { sqlCompiler } from '../../db/compiler.ts';
import { unseenIds } from '../../db/unseen.ts';
import type { Database, OrganizationType, RoleType, UserRow } from '../../db/schema.ts';

export type { UserRow } from '../../db/schema.ts';

/** Every column of users, named: a statement selecting `*` is never prepared (database.ts). */
export const USER_COLUMNS = [
  'users.id', 'users.auth_id', 'users.email', 'users.first_name', 'users.last_name', 'users.job_title', 'users.phone_number', 'users.mobile_phone',
  'users.street', 'users.postal_code', 'users.city', 'users.metadata', 'users.user_type', 'users.is_active', 'users.last_login_at', 'users.created_at',
  'users.updated_at', 'users.version', 'users.invitation_sent_at', 'users.dormancy_warned_at', 'users.dormancy_deactivated_at', 'users.reactivated_at',
] as const satisfies readonly `users.${keyof UserRow}`[];

/** users.pending_email while its confirmation link is still good (24 h), else null: an expired request waits no more. */
export const livePendingEmail = sql<string | null>`case when exists (select 1 from email_change_tokens t where t.user_id = users.id and t.expires_at > now()) then users.pending_email end`.as('pending_email');

export interface AssignmentRecord {
  id: string;
  userId: string;
  organizationId: string;
  organizationCode: string;
  organizationName: string;
  organizationType: OrganizationType;
  parentId: string | null;
  parentCode: string | null;
  inheritsToChildren: boolean;
  roleId: number;
  roleCode: string;
  roleName: string;
  roleType: RoleType;
  rolePermissions: string[];
}

export async function findUser(db: Kysely<Database>, id: string, options: { forUpdate?: boolean } = {}): Promise<UserRow | undefined> {
  const query = db.selectFrom('users').select(USER_COLUMNS).select(livePendingEmail).where('id', '=', id);
  return options.forUpdate ? query.forUpdate().executeTakeFirst() : query.executeTakeFirst();
}

/**
 * Every assignment of these users, with organization and role, in one statement. The users as one array
 * parameter: a single text, built once and prepared once per connection (database.ts), whatever their number.
 */
export async function loadAssignments(db: Kysely<Database>, userIds: readonly string[]): Promise<AssignmentRecord[]> {
  if (userIds.length === 0) return [];
  const { rows } = await db.executeQuery<AssignmentRow>({ ...ASSIGNMENTS_QUERY, parameters: [[...userIds]] });
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    organizationId: row.organization_id,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    organizationType: row.organization_type,
    parentId: row.parent_id,
    parentCode: row.parent_code,
    inheritsToChildren: row.inherits_to_children,
    roleId: row.role_id,
    roleCode: row.role_code,
    roleName: row.role_name,
    roleType: row.role_type,
    rolePermissions: row.role_permissions,
  }));
}

function assignmentsOf(db: Kysely<Database>, userIds: string[]) {
  return db
    .selectFrom('role_assignments as ra')
    .innerJoin('organizations as o', 'o.id', 'ra.organization_id')
    .innerJoin('roles as r', 'r.id', 'ra.role_id')
    .where(sql<SqlBool>`ra.user_id = any(${userIds}::uuid[])`)
    .select([
      'ra.id',
      'ra.user_id',
      'ra.inherits_to_children',
      'o.id as organization_id',
      'o.code as organization_code',
      'o.name as organization_name',
      'o.type as organization_type',
      'o.parent_id',
      'o.parent_code',
      'r.id as role_id',
      'r.code as role_code',
      'r.name as role_name',
      'r.type as role_type',
    ])
    .select(rolePermissions.as('role_permissions'))
    .orderBy('o.code')
    .orderBy('r.code');
}

/**
 * Every assignment of the row `users`, as loadAssignments reads them and in its order: a column of the users list's page
 * (users-list.repository.ts), which reads its rows and their assignments in one statement.
 */
export const userAssignments = sql<AssignmentRecord[]>`(select coalesce(json_agg(json_build_object(
    'id', ra.id, 'userId', ra.user_id, 'organizationId', o.id, 'organizationCode', o.code, 'organizationName', o.name,
    'organizationType', o.type, 'parentId', o.parent_id, 'parentCode', o.parent_code, 'inheritsToChildren', ra.inherits_to_children,
    'roleId', r.id, 'roleCode', r.code, 'roleName', r.name, 'roleType', r.type, 'rolePermissions', ${rolePermissions}) order by o.code, r.code), '[]'::json)
  from role_assignments as ra join organizations as o on o.id = ra.organization_id join roles as r on r.id = ra.role_id
  where ra.user_id = users.id)`;

type AssignmentRow = InferResult<ReturnType<typeof assignmentsOf>>[number];
const ASSIGNMENTS_QUERY: CompiledQuery<AssignmentRow> = assignmentsOf(sqlCompiler, []).compile();

export async function ownPermissions(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('user_permissions').select('permission_code').where('user_id', '=', userId).execute();
  return rows.map((r) => r.permission_code);
}

/**
 * Organizations that can be offered on the edit page: these ids, plus (for `withChildrenOf`) every
 * SIRET of these SIRENs. Sorted by code.
 */
export async function loadOrganizationsForEdit(
  db: Kysely<Database>,
  input: { ids: readonly string[]; withChildrenOf: readonly string[] },
): Promise<OrganizationDto[]> {
  if (input.ids.length === 0 && input.withChildrenOf.length === 0) return [];
  const rows = await db
    .selectFrom('organizations')
    .select(ORGANIZATION_COLUMNS)
    .where((eb) => {
      const conditions: Expression<SqlBool>[] = [];
      if (input.ids.length) conditions.push(eb('id', 'in', [...input.ids]));
      if (input.withChildrenOf.length) conditions.push(eb('parent_id', 'in', [...input.withChildrenOf]));
      return eb.or(conditions);
    })
    .orderBy('code')
    .execute();
  return rows.map(toOrganizationDto);
}

/**
 * Whether a PENDING invitation exists for the user's email (case-insensitive), on any organization (`reach`
 * null) or on one of `reach`. Served by the partial unique index invitations_one_pending_key
 * (lower(invitee_email), … WHERE status = 'PENDING').
 */
export function pendingInvitationFor<DB extends Database, TB extends 'users' & keyof DB>(eb: ExpressionBuilder<DB, TB>, reach: ReadonlySet<string> | null): ExpressionWrapper<DB, TB, boolean> {
  const inner = eb as unknown as ExpressionBuilder<Database, 'users'>;
  return inner
    .exists(
      inner
        .selectFrom('invitations as inv')
        .select(sql.lit(1).as('one'))
        .where(sql<SqlBool>`lower(inv.invitee_email) = lower(users.email)`)
        // A literal, not a parameter: a prepared statement's generic plan then still proves the partial index's predicate.
        .where('inv.status', '=', sql.lit('PENDING'))
        .$if(reach !== null, (q) => (reach!.size ? q.where(sql<SqlBool>`inv.organization_id = any(${unseenIds([...reach!])})`) : q.where(sql<SqlBool>`false`))),
    )
    // PostgreSQL answers exists() as a boolean.
    .$castTo<boolean>() as unknown as ExpressionWrapper<DB, TB, boolean>;
}
