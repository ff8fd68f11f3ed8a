// Roles with their permissions: as the users queries read them (RoleRecord) and as the API answers them
// (OpenAPI Role). Every role in one statement.
import { sql, type Kysely } from 'kysely';
import type { Database, RoleType } from '../../db/schema.ts';

export interface RoleRecord {
  id: number;
  code: string;
  name: string;
  type: RoleType;
  color: string | null;
  permissions: string[];
}

export interface RoleDto {
  id: number;
  code: string;
  name: string;
  /** Same as name: the portal's forms read it under this name (spec §3). */
  nomRole: string;
  type: RoleType;
  metadata: { color: string } | null;
  permissions: { code: string }[];
}

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

/** OpenAPI Role. */
export function toRoleDto(role: RoleRecord): RoleDto {
  return {
    id: role.id,
    code: role.code,
    name: role.name,
    nomRole: role.name,
    type: role.type,
    metadata: role.color ? { color: role.color } : null,
    permissions: role.permissions.map((code) => ({ code })),
  };
}

/** Every role as the API answers it, in the order of the spec's list. */
export async function listAllRoles(db: Kysely<Database>): Promise<RoleDto[]> {
  return (await loadRoles(db)).map(toRoleDto);
}
