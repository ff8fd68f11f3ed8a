// A role as the users rules read it (RoleRecord) and as the API answers it (OpenAPI Role). Pure.
import type { RoleType } from '../../db/schema.ts';

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
