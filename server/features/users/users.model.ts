// What a user and their assignments are, and how a change of them is worked out. Pure: no database, no HTTP.
import type { OrganizationDto } from '../organizations/organizations.repository.ts';
import type { RoleRecord } from '../roles/roles.repository.ts';
import type { AssignmentRecord } from './users-read.repository.ts';
import type { UserRow } from '../../db/schema.ts';
import { auditAuthor, type OrganizationReach } from '../../core/actor.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { DAY_MS } from '../../core/time.ts';

/**
 * How an action on many users runs the single action for one person: `claim` first in the person's unit of work
 * (it writes the person's outcome, so that the outcome and the change commit together or not at all), and a
 * deactivation of an inactive account (or the reverse) refused rather than answered unchanged.
 */
export interface PersonStep {
  claim: (trx: Transaction<Database>) => Promise<void>;
  refuseUnchanged: boolean;
}

/**
 * What an organization user reaches for a user decision: the organizations where they hold the permission
 * it needs, and the parent SIRENs of those (a role held there with inheritsToChildren covers them too). Null: global.
 */
export type UserScope = OrganizationReach;

/** A user's personal fields, as a creation gives them. */
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

export interface PlannedAssignment {
  organizationId: string;
  roleId: number;
  inheritsToChildren: boolean;
}

/** ORG_ADMIN is accepted as an alias of ADMIN_ADHERENT (spec §3, demo data). */
export function canonicalRoleCode(code: string): string {
  return code === 'ORG_ADMIN' ? 'ADMIN_ADHERENT' : code;
}

/** A user's personal fields under their API names: in UserDetailUser, and what the audit records of a user. */
export function personalFields(user: UserRow) {
  return {
    firstName: user.first_name,
    lastName: user.last_name,
    email: user.email,
    jobTitle: user.job_title,
    phoneNumber: user.phone_number,
    mobilePhone: user.mobile_phone,
    street: user.street,
    postalCode: user.postal_code,
    city: user.city,
    metadata: user.metadata,
  };
}

export const assignmentKey = (a: { organizationId: string; roleId: number }) => `${a.organizationId}|${a.roleId}`;

export interface AssignmentDiff {
  removed: string[];
  added: PlannedAssignment[];
  /** Assignment ids whose inheritsToChildren changes, with the new value. */
  flipped: { id: string; inherits: boolean }[];
}

export const isEmptyDiff = (diff: AssignmentDiff) => diff.removed.length + diff.added.length + diff.flipped.length === 0;

/**
 * What makes `current` (the assignments concerned) become `desired`: those no longer wanted go, the new
 * ones come, inheritsToChildren changes where it differs. Unchanged ones keep their id and date.
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

/** The SIRENs on which a diff gives inheritsToChildren that was not held: added with it, or switched on. */
export function inheritanceGiven(diff: AssignmentDiff, current: readonly { id: string; organizationId: string }[]): string[] {
  const switchedOn = diff.flipped.filter((f) => f.inherits).map((f) => current.find((a) => a.id === f.id)!.organizationId);
  return [...new Set([...diff.added.filter((a) => a.inheritsToChildren).map((a) => a.organizationId), ...switchedOn])];
}

/**
 * assignUserRoles: roles added in one organization to `current`. A role held there already keeps its
 * inheritsToChildren unless the body says otherwise.
 */
export function addedIn(
  target: Pick<OrganizationDto, 'id' | 'type'>,
  roles: readonly Pick<RoleRecord, 'id'>[],
  inheritsToChildren: boolean | undefined,
  current: readonly PlannedAssignment[],
): PlannedAssignment[] {
  const result = new Map(current.map((a) => [assignmentKey(a), a]));
  for (const role of roles) {
    const key = assignmentKey({ organizationId: target.id, roleId: role.id });
    const inherits = inheritsToChildren ?? result.get(key)?.inheritsToChildren ?? false;
    result.set(key, { organizationId: target.id, roleId: role.id, inheritsToChildren: inherits && target.type === 'SIREN' });
  }
  return [...result.values()];
}

export const asPlanned = (a: AssignmentRecord): PlannedAssignment => ({ organizationId: a.organizationId, roleId: a.roleId, inheritsToChildren: a.inheritsToChildren });

/** The identity account of a user: their e-mail, and their names as the provider displays them. */
export function accountOf(user: Pick<UserRow, 'email' | 'first_name' | 'last_name'>): { email: string; displayName: string } {
  return { email: user.email, displayName: `${user.first_name} ${user.last_name}` };
}

/** Assignments as sorted text, e.g. '12345678900012 COMPTABLE' (a '+' marks inheritsToChildren). */
export function describeAssignments(assignments: readonly AssignmentRecord[]): string[] {
  return assignments.map((a) => `${a.organizationCode} ${a.roleCode}${a.inheritsToChildren ? ' +' : ''}`).sort();
}

/**
 * What every audit entry about this user holds: the actor, the user (their name and e-mails, which the journal
 * shows and searches), and every organization of their assignments before and after the change (the first
 * one's is the entry's organization).
 */
export function userAuditEntry(
  actor: { userId: string | null; email: string | null; isSystem?: true; name?: string },
  user: Pick<UserRow, 'id' | 'first_name' | 'last_name' | 'email'>,
  before: readonly Pick<AssignmentRecord, 'organizationId'>[],
  after: readonly Pick<AssignmentRecord, 'organizationId'>[] = before,
) {
  const organizationIds = [...new Set([...before, ...after].map((a) => a.organizationId))];
  return {
    // The portal's own moves (the dormancy jobs, the erasure's) are written by 'Système', without an author's id.
    actor: auditAuthor(actor),
    entityType: 'user' as const,
    entityId: user.id,
    organizationId: organizationIds[0] ?? null,
    organizationIds,
    subject: { name: `${user.first_name} ${user.last_name}`, emails: [user.email] },
  };
}


/**
 * The journal's record of a change of status: the status before and after and, when a reactivation clears a warning
 * of dormancy (a deactivation keeps it), that warning's moment, so that the account figures count every warning given
 * (issue 24), not only those still on the account.
 */
export function statusChangeRecord(before: { is_active: boolean; dormancy_warned_at: Date | string | null }, isActive: boolean) {
  const warned = isActive && before.dormancy_warned_at !== null ? new Date(before.dormancy_warned_at).toISOString() : null;
  return { isActive: { before: before.is_active, after: isActive }, ...(warned ? { dormancyWarnedAt: { before: warned, after: null } } : {}) };
}

/** What a reactivation also writes (issue 23): the dormancy clock restarts, no warning or portal's deactivation kept. */
export const reactivationColumns = (now: Date) => ({ reactivated_at: now, dormancy_warned_at: null, dormancy_deactivated_at: null });

/**
 * Dormant accounts (issue 23): the moment before which an account with no sign-in, creation or reactivation since is
 * dormant at `now`, DORMANCY_WARN_AFTER_DAYS before it; null when the warning is off (0): then only warned accounts are.
 */
export function dormancyCutoff(now: Date, warnAfterDays: number): Date | null {
  return warnAfterDays === 0 ? null : new Date(now.getTime() - warnAfterDays * DAY_MS);
}

type DormancyFields = Pick<UserRow, 'is_active' | 'dormancy_warned_at' | 'last_login_at' | 'created_at' | 'reactivated_at'>;

/**
 * When the account is dormant (as the list's 'Comptes dormants' keeps them, users-dormancy.repository.ts
 * dormantCondition): the last sign-in, or the creation when never signed in ('Inactif depuis le …'); else null.
 */
export function dormantSince(user: DormancyFields, cutoff: Date | null): Date | null {
  if (!user.is_active) return null;
  const moments = [user.last_login_at, user.created_at, user.reactivated_at].filter((m): m is Date => m !== null).map((m) => new Date(m).getTime());
  const activity = Math.max(...moments);
  const dormant = user.dormancy_warned_at !== null || (cutoff !== null && activity <= cutoff.getTime());
  return dormant ? new Date(user.last_login_at ?? user.created_at) : null;
}

/** OpenAPI AccountState: the states of an account the users list filters by ('État du compte'). */
export type AccountState = 'dormant' | 'invitationNotAccepted' | 'setupLinkExpired';

/**
 * An account state as a condition on the data (users-list.repository.ts accountStateCondition):
 * - dormant (issue 23): active, and warned or with no sign-in, creation or reactivation since `cutoff` (null: warned
 *   only, the warning being off);
 * - invitationNotAccepted, setupLinkExpired (issue 24): a set-up link was sent (users.invitation_sent_at) and the user
 *   never signed in; for setupLinkExpired, the latest link was sent `linkLifetimeMs` or more before now.
 *
 * `at` is the moment the condition is read for (its cut-off's now): a kept total of a state that moves with the clock
 * holds only from then on (server/db/list-totals.ts TotalClock).
 */
export type AccountStateFilter =
  | { state: 'dormant'; cutoff: Date | null; at: Date }
  | { state: 'invitationNotAccepted' | 'setupLinkExpired'; linkSentBefore: Date | null; at: Date };

/** What a state's condition is read against: the time, the set-up link's lifetime and the dormancy warning's period. */
export interface AccountStateClock {
  now: Date;
  linkLifetimeMs: number;
  warnAfterDays: number;
}

export function accountStateFilter(state: AccountState, clock: AccountStateClock): AccountStateFilter {
  if (state === 'dormant') return { state, cutoff: dormancyCutoff(clock.now, clock.warnAfterDays), at: clock.now };
  return { state, linkSentBefore: state === 'setupLinkExpired' ? new Date(clock.now.getTime() - clock.linkLifetimeMs) : null, at: clock.now };
}
