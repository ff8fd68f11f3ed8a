// Reading users: the list (a bounded number of statements whatever the page size), one user, their assignments.
import { sql, type Expression, type ExpressionBuilder, type ExpressionWrapper, type Kysely, type SqlBool } from 'kysely';
import { pageOffset } from '../http/pages.ts';
import type { Actor } from '../policy/actor.ts';
import { requireUserVisible, userScope, type UserScope } from '../policy/users.ts';
import { toOrganizationDto, type OrganizationDto } from './organizations-repo.ts';
import { rolePermissions } from './roles-repo.ts';
import type { Database, OrganizationType, RoleType, UserRow } from './schema.ts';

export type { UserRow } from './schema.ts';

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

/** ORG_ADMIN is accepted as an alias of ADMIN_ADHERENT (spec §3, demo data). */
export function canonicalRoleCode(code: string): string {
  return code === 'ORG_ADMIN' ? 'ADMIN_ADHERENT' : code;
}

export async function findUser(db: Kysely<Database>, id: string, options: { forUpdate?: boolean } = {}): Promise<UserRow | undefined> {
  const query = db.selectFrom('users').selectAll().where('id', '=', id);
  return options.forUpdate ? query.forUpdate().executeTakeFirst() : query.executeTakeFirst();
}

/** A user the actor may see, with all their assignments and the actor's reach. */
export interface VisibleUser {
  scope: UserScope | null;
  user: UserRow;
  assignments: AssignmentRecord[];
}

/** The user, or 404 as for a missing one when out of the actor's reach; `forUpdate` locks the row for the caller's transaction. */
export async function visibleUser(db: Kysely<Database>, actor: Actor, id: string, options: { forUpdate?: boolean } = {}): Promise<VisibleUser> {
  const scope = userScope(actor);
  const found = await findUser(db, id, options);
  const assignments = found ? await loadAssignments(db, [id]) : [];
  return { scope, user: requireUserVisible(actor, scope, found, assignments), assignments };
}

/** Every assignment of these users, with organization and role, in one statement. */
export async function loadAssignments(db: Kysely<Database>, userIds: readonly string[]): Promise<AssignmentRecord[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .selectFrom('role_assignments as ra')
    .innerJoin('organizations as o', 'o.id', 'ra.organization_id')
    .innerJoin('roles as r', 'r.id', 'ra.role_id')
    .where('ra.user_id', 'in', [...userIds])
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
    .orderBy('r.code')
    .execute();
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
    .selectAll()
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

// ---------------------------------------------------------------------------------------------
// The list.

export type UserSort = 'name' | 'email' | 'lastLogin';

export interface UserListQuery {
  page: number;
  pageSize: number;
  search?: string;
  /** The filter organization, already found (its type and parent decide the condition). */
  organization?: OrganizationDto;
  roleCode?: string;
  includeInactive: boolean;
  sort: UserSort;
  order: 'asc' | 'desc';
  /** Organization users: only users holding a role within this reach. Null: everyone. */
  scope: UserScope | null;
  /** Leaves this user out (the caller, for excludeSelf): in the count as in the page. */
  excludeUserId?: string;
  /** Organizations whose pending requests count for hasPendingInvitation (policy pendingRequestReach). Null: all. */
  pendingReach: ReadonlySet<string> | null;
}

/** A listed user, and whether a request for them is pending where the caller may see it (see pendingInvitationFor). */
export type ListedUserRow = UserRow & { has_pending_invitation: boolean };

export interface UserListPage {
  rows: ListedUserRow[];
  assignments: AssignmentRecord[];
  total: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

type UsersEb = ExpressionBuilder<Database, 'users'>;

function userFilter(eb: UsersEb, query: UserListQuery): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [];
  if (!query.includeInactive) conditions.push(eb('users.is_active', '=', true));
  if (query.excludeUserId) conditions.push(eb('users.id', '<>', query.excludeUserId));
  const search = query.search?.trim();
  if (search) {
    // The trigram-indexed expressions of migration 0001.
    const pattern = `%${escapeLike(search)}%`;
    conditions.push(
      eb.or([
        sql<SqlBool>`lower(users.first_name || ' ' || users.last_name) like lower(${pattern})`,
        sql<SqlBool>`lower(users.email) like lower(${pattern})`,
      ]),
    );
  }
  const { organization, roleCode, scope } = query;
  if (organization || roleCode || scope) {
    // One assignment must satisfy every assignment condition: 'holds role R in organization O, within the reach'.
    conditions.push(
      eb.exists(
        eb
          .selectFrom('role_assignments as ra')
          .select(sql.lit(1).as('one'))
          .whereRef('ra.user_id', '=', 'users.id')
          .where((inner) => {
            const on: Expression<SqlBool>[] = [];
            if (organization) {
              const alternatives: Expression<SqlBool>[] = [inner('ra.organization_id', '=', organization.id)];
              if (organization.type === 'SIREN') {
                alternatives.push(inner('ra.organization_id', 'in', inner.selectFrom('organizations as child').select('child.id').where('child.parent_id', '=', organization.id)));
              } else if (organization.parentId) {
                alternatives.push(inner.and([inner('ra.inherits_to_children', '=', true), inner('ra.organization_id', '=', organization.parentId)]));
              }
              on.push(inner.or(alternatives));
            }
            if (roleCode) {
              on.push(inner('ra.role_id', 'in', inner.selectFrom('roles as fr').select('fr.id').where('fr.code', '=', canonicalRoleCode(roleCode))));
            }
            if (scope) {
              const reach: Expression<SqlBool>[] = [];
              if (scope.organizationIds.size) reach.push(inner('ra.organization_id', 'in', [...scope.organizationIds]));
              if (scope.parentIds.size) reach.push(inner.and([inner('ra.inherits_to_children', '=', true), inner('ra.organization_id', 'in', [...scope.parentIds])]));
              on.push(reach.length ? inner.or(reach) : sql<SqlBool>`false`);
            }
            return inner.and(on);
          }),
      ),
    );
  }
  return eb.and(conditions);
}

/**
 * Whether a PENDING invitation exists for the user's email (case-insensitive), on any organization (`reach`
 * null) or on one of `reach`. Served by the partial unique index invitations_one_pending_key
 * (lower(invitee_email), … WHERE status = 'PENDING').
 */
export function pendingInvitationFor(eb: UsersEb, reach: ReadonlySet<string> | null): ExpressionWrapper<Database, 'users', boolean> {
  return eb.exists(
    eb
      .selectFrom('invitations as inv')
      .select(sql.lit(1).as('one'))
      .where(sql<SqlBool>`lower(inv.invitee_email) = lower(users.email)`)
      .where('inv.status', '=', 'PENDING')
      .$if(reach !== null, (q) => (reach!.size ? q.where('inv.organization_id', 'in', [...reach!]) : q.where(sql<SqlBool>`false`))),
  )
    // PostgreSQL answers exists() as a boolean.
    .$castTo<boolean>();
}

/** One page of users: three statements (count, page with each user's pending flag, the page's assignments) whatever the page size. */
export async function listUsersPage(db: Kysely<Database>, query: UserListQuery): Promise<UserListPage> {
  const counted = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => userFilter(eb, query))
    .executeTakeFirstOrThrow();
  const total = Number(counted.total);
  const offset = pageOffset(query);
  if (total === 0 || offset >= total) return { rows: [], assignments: [], total };

  const direction = query.order === 'desc' ? sql.raw('desc') : sql.raw('asc');
  let page = db
    .selectFrom('users')
    .selectAll()
    .select((eb) => pendingInvitationFor(eb, query.pendingReach).as('has_pending_invitation'))
    .where((eb) => userFilter(eb, query));
  if (query.sort === 'email') page = page.orderBy(sql`lower(users.email) ${direction}`);
  else if (query.sort === 'lastLogin') page = page.orderBy(sql`users.last_login_at ${direction} nulls last`);
  else page = page.orderBy(sql`lower(users.last_name || users.first_name) ${direction}`);
  const rows = await page.orderBy(sql`users.id ${direction}`).limit(query.pageSize).offset(offset).execute();
  const assignments = await loadAssignments(db, rows.map((r) => r.id));
  return { rows, assignments, total };
}
