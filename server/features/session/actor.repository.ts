import type { Kysely } from 'kysely';
import type { Actor, OrganizationReach } from '../../core/actor.ts';
import type { Database } from '../../db/schema.ts';

/** The actor of a verified token's subject, or null when no portal account has it. At most three statements whatever the assignments. */
export async function loadActor(db: Kysely<Database>, subject: string): Promise<Actor | null> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'is_active', 'user_type'])
    .where('auth_id', '=', subject)
    .executeTakeFirst();
  if (!user) return null;
  const isBackOffice = user.user_type === 'BACKOFFICE';
  const who = { userId: user.id, email: user.email, isActive: user.is_active, userType: user.user_type, isBackOffice };
  if (isBackOffice) {
    const rows = await db.selectFrom('user_permissions').select('permission_code').where('user_id', '=', user.id).execute();
    return { ...who, permissions: new Set(rows.map((r) => r.permission_code)), scope: null, parentIds: null, permissionScopes: null, roleCodes: new Set() };
  }
  const assignments = await db
    .selectFrom('role_assignments as ra')
    .innerJoin('roles as r', 'r.id', 'ra.role_id')
    .leftJoin('role_permissions as rp', 'rp.role_id', 'r.id')
    .select(['ra.organization_id', 'ra.inherits_to_children', 'r.code as role_code', 'rp.permission_code'])
    .where('ra.user_id', '=', user.id)
    .execute();
  const held = [...new Set(assignments.map((a) => a.organization_id))];
  const inheriting = [...new Set(assignments.filter((a) => a.inherits_to_children).map((a) => a.organization_id))];
  // One statement: the held organizations (for their parents) and the SIRETs of the SIRENs held with inheritance.
  const related = held.length
    ? await db
        .selectFrom('organizations')
        .select(['id', 'parent_id'])
        .where((eb) => eb.or([eb('id', 'in', held), ...(inheriting.length ? [eb('parent_id', 'in', inheriting)] : [])]))
        .execute()
    : [];
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
