// What a page of journal entries needs to be read, in one statement whatever the page's size: the users named
// (authors, persons) with where they hold roles, the requests that still exist, the organizations by id or code
// (and those each entry concerns, for an organization caller), the roles' names.
import { sql, type Kysely } from 'kysely';
import type { Database, OrganizationType, UserType } from '../../db/schema.ts';

export interface JournalUserRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  userType: UserType;
  assignments: { organizationId: string; inheritsToChildren: boolean }[];
}

export interface JournalOrganizationRow {
  id: string;
  code: string;
  name: string;
  type: OrganizationType;
}

export interface JournalLookupRows {
  users: JournalUserRow[];
  invitations: Set<string>;
  organizations: JournalOrganizationRow[];
  roleNames: Map<string, string>;
  /** Per entry, the organizations it concerns; only when asked (`entriesOf`). */
  entryOrganizations: Map<number, string[]>;
}

export interface JournalLookupKeys {
  userIds: readonly string[];
  invitationIds: readonly string[];
  organizationIds: readonly string[];
  organizationCodes: readonly string[];
  /** Entries whose organizations are wanted too (an organization caller's page); empty: none. */
  entriesOf: readonly number[];
  /** Whether the users' assignments are wanted (an organization caller may open a user only within their scope); else empty. */
  assignments?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How many values PostgreSQL assumes a list parameter holds when it plans a statement once for any values (its
 * generic plan). The statement below is prepared; each list is sent with at least this many values, completed by a
 * value no row holds (no id is the nil uuid, no request -1, no organization's code empty), so that PostgreSQL's plan
 * for the values sent is never estimated cheaper than its generic plan, which it then keeps. Sent as they were (an
 * empty list, two users), the plan for them always was, and the statement was planned again at every page: 0.3 to
 * 0.4 ms of PostgreSQL's work a page, about a quarter of a journal page's.
 */
export const PLANNED_LIST_LENGTH = 10;
const planned = <T>(list: readonly T[], none: T): T[] => [...list, ...Array<T>(Math.max(0, PLANNED_LIST_LENGTH - list.length)).fill(none)];
const NO_ID = '00000000-0000-0000-0000-000000000000';

export async function journalLookupRows(db: Kysely<Database>, keys: JournalLookupKeys): Promise<JournalLookupRows> {
  const userIds = planned(keys.userIds.filter((id) => UUID.test(id)), NO_ID);
  const invitationIds = planned(keys.invitationIds.filter((id) => /^\d{1,15}$/.test(id)).map(Number), -1);
  const organizationIds = planned(keys.organizationIds.filter((id) => UUID.test(id)), NO_ID);
  const entries = planned(keys.entriesOf, -1);
  const codes = planned(keys.organizationCodes, '');
  const { rows } = await sql<{ users: unknown; invitations: unknown; organizations: unknown; roles: unknown; concerned: unknown }>`
    select
      (select coalesce(json_agg(json_build_object('id', u.id, 'firstName', u.first_name, 'lastName', u.last_name, 'email', u.email, 'userType', u.user_type,
         'assignments', ${keys.assignments === false ? sql`'[]'::json` : sql`coalesce((select json_agg(json_build_object('organizationId', ra.organization_id, 'inheritsToChildren', ra.inherits_to_children))
                                  from role_assignments ra where ra.user_id = u.id), '[]'::json)`})), '[]'::json)
       from users u where u.id = any(${userIds}::uuid[])) as users,
      (select coalesce(json_agg(i.id::text), '[]'::json) from invitations i where i.id = any(${invitationIds}::bigint[])) as invitations,
      (select coalesce(json_agg(json_build_object('auditId', e.audit_id, 'organizationId', e.organization_id)), '[]'::json)
         from audit_log_organizations e where e.audit_id = any(${entries}::bigint[])) as concerned,
      (select coalesce(json_agg(json_build_object('id', o.id, 'code', o.code, 'name', o.name, 'type', o.type)), '[]'::json)
       -- Each way an organization is named, by its own index, then each organization once by its key (an OR would scan them all).
       from (select distinct k.id from (
               select unnest(${organizationIds}::uuid[]) as id
               union all select c.id from organizations c where c.code = any(${codes}::text[])
               union all select e.organization_id from audit_log_organizations e where e.audit_id = any(${entries}::bigint[])) k) named
       join organizations o on o.id = named.id) as organizations,
      (select coalesce(json_agg(json_build_object('code', r.code, 'name', r.name)), '[]'::json) from roles r) as roles`.execute(db);
  const row = rows[0]!;
  const parsed = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
  const entryOrganizations = new Map<number, string[]>();
  for (const e of parsed<{ auditId: number | string; organizationId: string }[]>(row.concerned)) {
    const id = Number(e.auditId);
    entryOrganizations.set(id, [...(entryOrganizations.get(id) ?? []), e.organizationId]);
  }
  return {
    users: parsed<JournalUserRow[]>(row.users),
    invitations: new Set(parsed<string[]>(row.invitations)),
    organizations: parsed<JournalOrganizationRow[]>(row.organizations),
    roleNames: new Map(parsed<{ code: string; name: string }[]>(row.roles).map((r) => [r.code, r.name])),
    entryOrganizations,
  };
}
