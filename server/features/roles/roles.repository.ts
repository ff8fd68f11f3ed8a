// Roles with their permissions: as the users queries read them (RoleRecord) and as the API answers them
// (OpenAPI Role). Every role in one statement.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { toRoleDto, type RoleDto, type RoleRecord } from './roles.model.ts';

export { toRoleDto, type RoleDto, type RoleRecord } from './roles.model.ts';

/** The sorted permission codes of the role `r` of a query. */
export const rolePermissions = sql<string[]>`coalesce((select array_agg(rp.permission_code order by rp.permission_code)
  from role_permissions rp where rp.role_id = r.id), '{}'::text[])`;

/** Every role with its permissions, in the order of the spec's list (their ids): one statement. */
export async function loadRoles(db: Kysely<Database>): Promise<RoleRecord[]> {
  const rows = await db
    .selectFrom('roles as r')
    .select(['r.id', 'r.code', 'r.name', 'r.type', 'r.color'])
    .select(rolePermissions.as('permissions'))
    .orderBy('r.id')
    .execute();
  return rows.map((r) => ({ id: r.id, code: r.code, name: r.name, type: r.type, color: r.color, permissions: r.permissions }));
}

export async function listAllRoles(db: Kysely<Database>): Promise<RoleDto[]> {
  return (await loadRoles(db)).map(toRoleDto);
}
