import { sql, type Kysely } from 'kysely';
import type { Actor, OrganizationReach } from '../../core/actor.ts';
import type { Database, UserType } from '../../db/schema.ts';

interface ActorRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  is_active: boolean;
  user_type: UserType;
  /** A back-office account's permissions; null for an organization user. */
  permissions: string[] | null;
  /** An organization user's assignments, one per permission of its role (null permission: a role without any). */
  assignments: { organization_id: string; inherits_to_children: boolean; role_code: string; permission_code: string | null }[] | null;
  /** The organizations held, and the SIRETs of the SIRENs held with inheritance, with their parent. */
  related: { id: string; parent_id: string | null }[] | null;
}

/**
 * The actor of a verified token's subject, or null when no portal account has it. One statement (every API request
 * loads its actor: one round trip instead of three), whatever the assignments.
 */
export async function loadActor(db: Kysely<Database>, subject: string): Promise<Actor | null> {
  const { rows } = await sql<ActorRow>`
    select u.id, u.email, u.first_name, u.last_name, u.is_active, u.user_type,
      case when u.user_type = 'BACKOFFICE' then
        array(select up.permission_code from user_permissions as up where up.user_id = u.id) end as permissions,
      case when u.user_type <> 'BACKOFFICE' then
        (select coalesce(json_agg(json_build_object('organization_id', ra.organization_id, 'inherits_to_children', ra.inherits_to_children,
                                                    'role_code', r.code, 'permission_code', rp.permission_code)), '[]'::json)
           from role_assignments as ra join roles as r on r.id = ra.role_id left join role_permissions as rp on rp.role_id = r.id
          where ra.user_id = u.id) end as assignments,
      case when u.user_type <> 'BACKOFFICE' then
        (select coalesce(json_agg(json_build_object('id', o.id, 'parent_id', o.parent_id)), '[]'::json)
           from (select o.id, o.parent_id from organizations as o
                  where o.id in (select ra.organization_id from role_assignments as ra where ra.user_id = u.id)
                 union
                 select o.id, o.parent_id from organizations as o
                  where o.parent_id in (select ra.organization_id from role_assignments as ra where ra.user_id = u.id and ra.inherits_to_children)) as o)
      end as related
    from users as u
    where u.auth_id = ${subject}`.execute(db);
  const user = rows[0];
  if (!user) return null;
  const isBackOffice = user.user_type === 'BACKOFFICE';
  const who = { userId: user.id, email: user.email, name: `${user.first_name} ${user.last_name}`, isActive: user.is_active, userType: user.user_type, isBackOffice };
  if (isBackOffice) {
    return { ...who, permissions: new Set(user.permissions ?? []), scope: null, parentIds: null, permissionScopes: null, roleCodes: new Set() };
  }
  const assignments = user.assignments ?? [];
  const related = user.related ?? [];
  const held = [...new Set(assignments.map((a) => a.organization_id))];
  const inheriting = [...new Set(assignments.filter((a) => a.inherits_to_children).map((a) => a.organization_id))];
  const scope = new Set([...held, ...related.filter((o) => o.parent_id !== null && inheriting.includes(o.parent_id)).map((o) => o.id)]);
  const parentIds = new Set(related.filter((o) => scope.has(o.id) && o.parent_id !== null).map((o) => o.parent_id as string));
  // Per permission: the organizations of the assignments whose role gives it (a SIREN held with inheritance: its SIRETs too).
  const parentOf = new Map(related.map((o) => [o.id, o.parent_id]));
  const reached = new Map<string, Set<string>>();
  for (const a of assignments) {
    if (!a.permission_code) continue;
    const organizations = reached.get(a.permission_code) ?? new Set<string>();
    organizations.add(a.organization_id);
    if (a.inherits_to_children) for (const o of related) if (o.parent_id === a.organization_id) organizations.add(o.id);
    reached.set(a.permission_code, organizations);
  }
  const permissionScopes = new Map<string, OrganizationReach>(
    [...reached].map(([code, organizationIds]) => [
      code,
      { organizationIds, parentIds: new Set([...organizationIds].flatMap((id) => (parentOf.get(id) ? [parentOf.get(id)!] : []))) },
    ]),
  );
  return {
    ...who,
    permissions: new Set(assignments.flatMap((a) => (a.permission_code ? [a.permission_code] : []))),
    scope,
    parentIds,
    permissionScopes,
    roleCodes: new Set(assignments.map((a) => a.role_code)),
  };
}
