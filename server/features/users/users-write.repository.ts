// Writing users: always inside the caller's transaction (one per request), never committing on its own.
import { sql, type Kysely, type Transaction } from 'kysely';
import { ApiError } from '../../api/errors.ts';
import type { AuditEntry } from '../audit/audit.repository.ts';
import { IdentityDirectoryError, IdentityTakenError } from '../../identity/directory.ts';
import type { Database, UserRow, UserUpdate } from '../../db/schema.ts';
import type { PlannedAssignment } from './users-plans.ts';
import type { AssignmentRecord } from './users-read.repository.ts';

export const WRITE_MESSAGES = {
  emailTaken: 'Cette adresse email est déjà utilisée par un autre utilisateur.',
  staleVersion: "Cet utilisateur a été modifié par quelqu'un d'autre entre-temps. Rechargez la page.",
  directoryUnavailable: "Le service d'identité est momentanément indisponible. Réessayez dans quelques instants.",
  identityTaken: "Le compte de connexion de cette adresse email appartient déjà à un autre utilisateur.",
} as const;

export const staleVersion = () => new ApiError(409, WRITE_MESSAGES.staleVersion);
export const emailTaken = () => new ApiError(409, WRITE_MESSAGES.emailTaken);

export interface NewUserFields {
  firstName: string;
  lastName: string;
  email: string;
  jobTitle: string | null;
  phoneNumber: string | null;
  mobilePhone: string | null;
  street: string | null;
  postalCode: string | null;
  city: string | null;
}

/** Case-insensitive, as the unique index users_email_lower_key. */
export async function emailInUse(trx: Kysely<Database>, email: string, exceptUserId?: string): Promise<boolean> {
  let query = trx.selectFrom('users').select('id').where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()));
  if (exceptUserId) query = query.where('id', '<>', exceptUserId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** A new ORGANIZATION user, without identity yet (auth_id set once the directory answers). */
export async function insertUser(trx: Transaction<Database>, fields: NewUserFields): Promise<UserRow> {
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
      user_type: 'ORGANIZATION',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function setAuthId(trx: Transaction<Database>, userId: string, subject: string): Promise<UserRow> {
  return trx.updateTable('users').set({ auth_id: subject }).where('id', '=', userId).returningAll().executeTakeFirstOrThrow();
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

const assignmentKey = (a: { organizationId: string; roleId: number }) => `${a.organizationId}|${a.roleId}`;

export interface AssignmentDiff {
  removed: string[];
  added: PlannedAssignment[];
  /** Assignment ids whose inheritsToChildren changes, with the new value. */
  flipped: { id: string; inherits: boolean }[];
}

export const isEmptyDiff = (diff: AssignmentDiff) => diff.removed.length + diff.added.length + diff.flipped.length === 0;

/**
 * What makes `current` (the assignments concerned) become `desired`: those no longer wanted go, the new
 * ones come, inheritsToChildren changes where it differs. Unchanged ones keep their id and date. Pure.
 */
export function diffAssignments(current: readonly AssignmentRecord[], desired: readonly PlannedAssignment[]): AssignmentDiff {
  const wanted = new Map<string, PlannedAssignment>();
  for (const a of desired) {
    const previous = wanted.get(assignmentKey(a));
    wanted.set(assignmentKey(a), { ...a, inheritsToChildren: a.inheritsToChildren || (previous?.inheritsToChildren ?? false) });
  }
  const existing = new Map(current.map((a) => [assignmentKey(a), a]));
  return {
    removed: current.filter((a) => !wanted.has(assignmentKey(a))).map((a) => a.id),
    added: [...wanted.values()].filter((a) => !existing.has(assignmentKey(a))),
    flipped: [...wanted.values()].flatMap((a) => {
      const before = existing.get(assignmentKey(a));
      return before && before.inheritsToChildren !== a.inheritsToChildren ? [{ id: before.id, inherits: a.inheritsToChildren }] : [];
    }),
  };
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

// ---------------------------------------------------------------------------------------------
// A user as the audit and the identity provider see them.

/** The identity account of a user: their e-mail, and their names as the provider displays them. */
export function accountOf(user: Pick<UserRow, 'email' | 'first_name' | 'last_name'>): { email: string; displayName: string } {
  return { email: user.email, displayName: `${user.first_name} ${user.last_name}` };
}

/** What every audit entry about this user holds: the actor, the user, and the organization of their first assignment. */
export function userAuditEntry(actor: AuditEntry['actor'], userId: string, assignments: readonly AssignmentRecord[]) {
  return { actor, entityType: 'user' as const, entityId: userId, organizationId: assignments[0]?.organizationId ?? null };
}

/** Assignments as sorted text, e.g. '12345678900012 COMPTABLE' (a '+' marks inheritsToChildren). */
export function describeAssignments(assignments: readonly AssignmentRecord[]): string[] {
  return assignments.map((a) => `${a.organizationCode} ${a.roleCode}${a.inheritsToChildren ? ' +' : ''}`).sort();
}

// ---------------------------------------------------------------------------------------------
// Errors of a write.

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  return e?.code === '23505' && (e.constraint === constraint || (e.message ?? '').includes(constraint));
}

/**
 * A concurrent creation with the same email (unique index) answers 409, as does an identity-provider
 * account already linked to another user or signing in with that email; an unreachable identity provider 503.
 */
export function mapWriteError(error: unknown): unknown {
  if (isUniqueViolation(error, 'users_email_lower_key')) return emailTaken();
  if (isUniqueViolation(error, 'users_auth_id_key') || isUniqueViolation(error, 'identity_accounts_email_lower_key') || error instanceof IdentityTakenError) {
    return new ApiError(409, WRITE_MESSAGES.identityTaken);
  }
  if (error instanceof IdentityDirectoryError) return new ApiError(503, WRITE_MESSAGES.directoryUnavailable);
  return error;
}
