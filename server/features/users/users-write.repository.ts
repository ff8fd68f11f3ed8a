// Writing users: always inside the caller's transaction (one per request), never committing on its own.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, UserRow, UserType, UserUpdate } from '../../db/schema.ts';
import type { AssignmentDiff, NewUserFields } from './users.model.ts';

/** Case-insensitive, as the unique index users_email_lower_key. */
export async function emailInUse(trx: Kysely<Database>, email: string, exceptUserId?: string): Promise<boolean> {
  let query = trx.selectFrom('users').select('id').where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()));
  if (exceptUserId) query = query.where('id', '<>', exceptUserId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** A new user (ORGANIZATION unless said), without identity yet (auth_id set once the directory answers). */
export async function insertUser(trx: Transaction<Database>, fields: NewUserFields, userType: UserType = 'ORGANIZATION'): Promise<UserRow> {
  return trx
    .insertInto('users')
    .values({
      auth_id: null,
      email: fields.email,
      first_name: fields.firstName,
      last_name: fields.lastName,
      job_title: fields.jobTitle,
      phone_number: fields.phoneNumber,
      mobile_phone: fields.mobilePhone,
      street: fields.street,
      postal_code: fields.postalCode,
      city: fields.city,
      metadata: null,
      user_type: userType,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A back-office user's own permissions (user_permissions). */
export async function grantPermissions(trx: Transaction<Database>, userId: string, codes: readonly string[]): Promise<void> {
  if (codes.length) await trx.insertInto('user_permissions').values(codes.map((code) => ({ user_id: userId, permission_code: code }))).execute();
}

/** Every permission code the portal knows (reference data), in code order. */
export async function allPermissionCodes(trx: Kysely<Database>): Promise<string[]> {
  return (await trx.selectFrom('permissions').select('code').orderBy('code').execute()).map((row) => row.code);
}

/** E-mails of the active back-office users who may create users: the back-office administrators. */
export async function activeBackOfficeAdministrators(trx: Kysely<Database>): Promise<string[]> {
  const rows = await trx
    .selectFrom('users')
    .select('email')
    .where('user_type', '=', 'BACKOFFICE')
    .where('is_active', '=', true)
    .where((eb) => eb.exists(eb.selectFrom('user_permissions').select('user_id').whereRef('user_permissions.user_id', '=', 'users.id').where('permission_code', '=', 'USER_CREATE')))
    .orderBy('email')
    .execute();
  return rows.map((row) => row.email);
}

/** Serializes the creations of back-office administrators (npm run admin:create) until the transaction ends. */
export async function lockBackOfficeAdministrators(trx: Transaction<Database>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${BACK_OFFICE_LOCK_KEY}::bigint)`.execute(trx);
}
const BACK_OFFICE_LOCK_KEY = 4_870_231_379;

/** The user's sign-in account, and when its set-up link is sent (`invitationSentAt`, the link's own time). */
export async function setAuthId(trx: Transaction<Database>, userId: string, subject: string, invitationSentAt: Date): Promise<UserRow> {
  return trx.updateTable('users').set({ auth_id: subject, invitation_sent_at: invitationSentAt }).where('id', '=', userId).returningAll().executeTakeFirstOrThrow();
}

/**
 * Updates a user and bumps its version, atomically against `expectedVersion` when given
 * (UPDATE … WHERE id AND version): undefined when the user changed since (or is gone).
 */
export async function updateUserRow(trx: Transaction<Database>, userId: string, fields: UserUpdate, expectedVersion?: number): Promise<UserRow | undefined> {
  let query = trx
    .updateTable('users')
    .set({ ...fields, version: sql<number>`version + 1`, updated_at: sql<Date>`now()` })
    .where('id', '=', userId);
  if (expectedVersion !== undefined) query = query.where('version', '=', expectedVersion);
  return query.returningAll().executeTakeFirst();
}

/** Writes a diff of diffAssignments: at most four statements whatever its size. */
export async function applyAssignments(trx: Transaction<Database>, userId: string, diff: AssignmentDiff): Promise<void> {
  if (diff.removed.length) await trx.deleteFrom('role_assignments').where('user_id', '=', userId).where('id', 'in', diff.removed).execute();
  if (diff.added.length) {
    await trx
      .insertInto('role_assignments')
      .values(diff.added.map((a) => ({ user_id: userId, organization_id: a.organizationId, role_id: a.roleId, inherits_to_children: a.inheritsToChildren })))
      .execute();
  }
  for (const inherits of [true, false]) {
    const ids = diff.flipped.filter((f) => f.inherits === inherits).map((f) => f.id);
    if (ids.length) await trx.updateTable('role_assignments').set({ inherits_to_children: inherits }).where('id', 'in', ids).execute();
  }
}

/** Removes the user and everything that is theirs; invitations keep their text (their foreign keys are SET NULL). */
export async function deleteUserRows(trx: Transaction<Database>, userId: string): Promise<void> {
  await trx.deleteFrom('role_assignments').where('user_id', '=', userId).execute();
  await trx.deleteFrom('user_permissions').where('user_id', '=', userId).execute();
  await trx.deleteFrom('users').where('id', '=', userId).execute();
}

export interface Grant {
  userId: string;
  organizationId: string;
  roleId: number;
  inheritsToChildren: boolean;
}

/** Gives a role; giving what is held already changes nothing but may widen it to the SIRETs. */
const granted = (qc: Kysely<Database>, g: Grant) =>
  qc
    .insertInto('role_assignments')
    .values({ user_id: g.userId, organization_id: g.organizationId, role_id: g.roleId, inherits_to_children: g.inheritsToChildren })
    .onConflict((oc) =>
      oc.columns(['user_id', 'organization_id', 'role_id']).doUpdateSet({
        inherits_to_children: sql<boolean>`role_assignments.inherits_to_children or excluded.inherits_to_children`,
      }),
    );

/** Gives a role to a user just created. */
export async function grantRole(trx: Transaction<Database>, grant: Grant): Promise<void> {
  await granted(trx, grant).execute();
}

/**
 * Gives a role to an existing user, bumps their version, and answers how many distinct roles they then hold and on
 * which organizations, in one statement (it does not see its own insert: the assignments held before, and the one it
 * returns).
 */
export async function grantRoleCounting(trx: Transaction<Database>, grant: Grant): Promise<{ roles: number; organizationIds: string[] }> {
  const held = await trx
    .with('given', (qc) => granted(qc as unknown as Kysely<Database>, grant).returning(['role_id', 'organization_id']))
    .with('bumped', (qc) => qc.updateTable('users').set({ version: sql<number>`version + 1`, updated_at: sql<Date>`now()` }).where('id', '=', grant.userId).returning('id'))
    .selectFrom((eb) =>
      eb
        .selectFrom('role_assignments')
        .select(['role_assignments.role_id', 'role_assignments.organization_id'])
        .where('role_assignments.user_id', '=', grant.userId)
        .unionAll(eb.selectFrom('given').select(['given.role_id', 'given.organization_id']))
        .as('held'),
    )
    .select((eb) => [
      eb.fn.count<number>('held.role_id').distinct().as('roles'),
      sql<string[]>`array_agg(distinct held.organization_id)`.as('organization_ids'),
    ])
    .executeTakeFirstOrThrow();
  return { roles: Number(held.roles), organizationIds: held.organization_ids };
}
