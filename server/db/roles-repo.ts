// Roles with their permissions (OpenAPI Role), in one statement.
import { sql, type Kysely } from 'kysely';
import type { Database, RoleType } from './schema.ts';

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

/** Every role, in the order of the spec's list (their ids). */
export async function listAllRoles(db: Kysely<Database>): Promise<RoleDto[]> {
  const rows = await db
    .selectFrom('roles as r')
    .select(['r.id', 'r.code', 'r.name', 'r.type', 'r.color'])
    .select(
      sql<string[]>`coalesce((select array_agg(rp.permission_code order by rp.permission_code)
        from role_permissions rp where rp.role_id = r.id), '{}'::text[])`.as('permission_codes'),
    )
    .orderBy('r.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    name: row.name,
    nomRole: row.name,
    type: row.type,
    metadata: row.color ? { color: row.color } : null,
    permissions: row.permission_codes.map((code) => ({ code })),
  }));
}
