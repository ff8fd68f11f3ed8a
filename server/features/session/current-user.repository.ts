// The signed-in person's profile (OpenAPI CurrentUser), in at most 3 statements.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, OrganizationType, RoleType, UserType } from '../../db/schema.ts';
import { livePendingEmail } from '../users/users-read.repository.ts';

export interface PermissionRef {
  code: string;
}

export interface CurrentUserOrganization {
  id: string;
  code: string;
  name: string;
  type: OrganizationType;
  parentCode: string | null;
  inheritsToChildren: boolean;
  role: {
    id: number;
    code: string;
    name: string;
    type: RoleType;
    permissions: PermissionRef[];
  };
}

export interface CurrentUser {
  id: string;
  authId: string;
  email: string;
  firstName: string;
  lastName: string;
  isActive: boolean;
  userType: UserType;
  /** Back-office: the user's own list. Organization users: the union of their roles' permissions. */
  permissions: PermissionRef[];
  /** One entry per role assignment. */
  organizations: CurrentUserOrganization[];
  lastLoginAt: string | null;
  /** A new address waiting for this person's own confirmation (its link still good), else null. */
  pendingEmail: string | null;
}

const byCode = (codes: Iterable<string>): PermissionRef[] => [...new Set(codes)].sort().map((code) => ({ code }));

/** Null when no portal user has this identity-provider subject (inactive users are returned). */
export async function loadCurrentUserBySubject(db: Kysely<Database>, subject: string): Promise<CurrentUser | null> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'auth_id', 'email', 'first_name', 'last_name', 'is_active', 'user_type', 'last_login_at'])
    .select(livePendingEmail)
    .where('auth_id', '=', subject)
    .executeTakeFirst();
  if (!user || user.auth_id === null) return null;

  const assignments = await db
    .selectFrom('role_assignments as ra')
    .innerJoin('organizations as o', 'o.id', 'ra.organization_id')
    .innerJoin('roles as r', 'r.id', 'ra.role_id')
    .where('ra.user_id', '=', user.id)
    .select([
      'o.id as organization_id',
      'o.code as organization_code',
      'o.name as organization_name',
      'o.type as organization_type',
      'o.parent_code',
      'ra.inherits_to_children',
      'r.id as role_id',
      'r.code as role_code',
      'r.name as role_name',
      'r.type as role_type',
    ])
    .select(
      sql<string[]>`coalesce((select array_agg(rp.permission_code order by rp.permission_code)
        from role_permissions rp where rp.role_id = r.id), '{}'::text[])`.as('role_permissions'),
    )
    .orderBy('o.code')
    .orderBy('r.code')
    .execute();

  const organizations: CurrentUserOrganization[] = assignments.map((row) => ({
    id: row.organization_id,
    code: row.organization_code,
    name: row.organization_name,
    type: row.organization_type,
    parentCode: row.parent_code,
    inheritsToChildren: row.inherits_to_children,
    role: {
      id: row.role_id,
      code: row.role_code,
      name: row.role_name,
      type: row.role_type,
      permissions: row.role_permissions.map((code) => ({ code })),
    },
  }));

  let permissions: PermissionRef[];
  if (user.user_type === 'BACKOFFICE') {
    const own = await db.selectFrom('user_permissions').select('permission_code').where('user_id', '=', user.id).execute();
    permissions = byCode(own.map((row) => row.permission_code));
  } else {
    permissions = byCode(assignments.flatMap((row) => row.role_permissions));
  }

  return {
    id: user.id,
    authId: user.auth_id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    isActive: user.is_active,
    userType: user.user_type,
    permissions,
    organizations,
    lastLoginAt: user.last_login_at ? user.last_login_at.toISOString() : null,
    pendingEmail: user.pending_email,
  };
}

/**
 * Records a sign-in newer than the last one known (the provider does not tell us of sign-ins; tokens do), of an
 * account not warned of its dormancy, or inactive (a deactivated account keeps its warning: the account-lifecycle
 * machine's account.signIn leaves dormantWarned only): one statement. False when it changed nothing: the account is
 * active and warned (the sign-in ends the warning: `endDormancyWarning`, which records it), or a newer sign-in is
 * known already.
 */
export async function recordSignIn(db: Kysely<Database>, userId: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ last_login_at: at })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('dormancy_warned_at', 'is', null), eb('is_active', '=', false)]))
    .where((eb) => eb.or([eb('last_login_at', 'is', null), eb('last_login_at', '<', at)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Records a sign-in newer than the last one known of an active account and ends its dormancy warning (issue 23, the
 * account-lifecycle machine's account.signIn): the dormancy clock starts again from it. In the caller's transaction,
 * the row locked first; answers the warning it ended (null: none, or the sign-in is not newer), so that the caller
 * journals the move in the same transaction.
 */
export async function endDormancyWarning(trx: Transaction<Database>, userId: string, at: Date): Promise<Date | null> {
  const { rows } = await sql<{ warned_at: Date | null }>`
    with old as (
      select u.id, u.dormancy_warned_at from users u
       where u.id = ${userId}::uuid and u.is_active and (u.last_login_at is null or u.last_login_at < ${at}::timestamptz)
       for update)
    update users set last_login_at = ${at}::timestamptz, dormancy_warned_at = null from old
     where users.id = old.id
    returning old.dormancy_warned_at as warned_at`.execute(trx);
  const warned = rows[0]?.warned_at ?? null;
  return warned === null ? null : new Date(warned);
}
