// What a page of journal entries needs to be read, each in one statement whatever the page's size: the
// organizations each entry concerns, the users named (authors, persons) with their assignments, the requests
// that still exist, the organizations by id or code, the roles' names.
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database, OrganizationType, UserType } from '../../db/schema.ts';

export async function organizationsOfEntries(db: Kysely<Database>, auditIds: readonly number[]): Promise<Map<number, string[]>> {
  const byEntry = new Map<number, string[]>();
  if (auditIds.length === 0) return byEntry;
  const rows = await db.selectFrom('audit_log_organizations').select(['audit_id', 'organization_id']).where('audit_id', 'in', [...auditIds]).execute();
  for (const row of rows) byEntry.set(Number(row.audit_id), [...(byEntry.get(Number(row.audit_id)) ?? []), row.organization_id]);
  return byEntry;
}

export interface JournalUserRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  userType: UserType;
  assignments: { organizationId: string; inheritsToChildren: boolean }[];
}

/** These users as they are now, with where they hold roles (for whether the caller may open them). */
export async function usersForJournal(db: Kysely<Database>, ids: readonly string[]): Promise<JournalUserRow[]> {
  const uuids = ids.filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  if (uuids.length === 0) return [];
  const rows = await db
    .selectFrom('users as u')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.user_type'])
    .select(
      sql<{ organizationId: string; inheritsToChildren: boolean }[]>`coalesce((select json_agg(json_build_object('organizationId', ra.organization_id, 'inheritsToChildren', ra.inherits_to_children)) from role_assignments ra where ra.user_id = u.id), '[]'::json)`.as(
        'assignments',
      ),
    )
    .where(sql<SqlBool>`u.id = any(${uuids}::uuid[])`)
    .execute();
  return rows.map((r) => ({ id: r.id, firstName: r.first_name, lastName: r.last_name, email: r.email, userType: r.user_type, assignments: r.assignments }));
}

/** The ids, among these, of the requests that still exist. */
export async function existingInvitations(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  const numbers = ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number);
  if (numbers.length === 0) return new Set();
  const rows = await db.selectFrom('invitations').select('id').where('id', 'in', numbers).execute();
  return new Set(rows.map((r) => String(r.id)));
}

export interface JournalOrganizationRow {
  id: string;
  code: string;
  name: string;
  type: OrganizationType;
}

export async function organizationsForJournal(db: Kysely<Database>, ids: readonly string[], codes: readonly string[]): Promise<JournalOrganizationRow[]> {
  if (ids.length === 0 && codes.length === 0) return [];
  return db
    .selectFrom('organizations')
    .select(['id', 'code', 'name', 'type'])
    .where((eb) => eb.or([...(ids.length > 0 ? [eb('id', 'in', [...ids])] : []), ...(codes.length > 0 ? [eb('code', 'in', [...codes])] : [])]))
    .execute();
}

/** Every role's name by code (a few dozen rows). */
export async function roleNamesByCode(db: Kysely<Database>): Promise<Map<string, string>> {
  const rows = await db.selectFrom('roles').select(['code', 'name']).execute();
  return new Map(rows.map((r) => [r.code, r.name]));
}
