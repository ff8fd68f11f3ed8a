// Who may start an action on many users, and read where it stands. Pure. Each person of the selection is then
// decided by the single action's own policy (users.policy.ts), as if asked alone.
import type { Actor } from '../../core/actor.ts';
import { DomainError, invalid, notFound, tooMany } from '../../core/errors.ts';
import type { BulkActionKind, UserType } from '../../db/schema.ts';
import {
  requireCanChangeAccount,
  requireCanChangeUsers,
  requireCanHardDeleteUsers,
  requireCanReadUser,
  requireChangeableUser,
  requireStatusChange,
  requireUserVisible,
  userScope,
  type ScopedAssignment,
} from './users.policy.ts';

/** The most persons a selection by the list's filters may hold. */
export const MAX_SELECTION_BY_FILTERS = 100_000;

/** Unexpected failures of one person's action before the person is reported as refused (the others go on). */
export const MAX_PERSON_FAILURES = 3;

export const BULK_MESSAGES = {
  tooLarge: 'La sélection dépasse 100 000 utilisateurs : affinez les filtres.',
  notFound: 'Action groupée introuvable.',
  alreadyRunning: "Une action groupée que vous avez lancée est encore en cours : attendez qu'elle se termine avant d'en lancer une autre.",
  unexpectedFailure: "L'action a échoué trois fois pour cette personne (erreur du serveur) : réessayez plus tard pour elle seule.",
} as const;

/** 'delete': the rights of a permanent delete; the other actions: USER_CREATE, as their single action. 403 for the whole request otherwise. */
export function requireCanStartBulkAction(actor: Actor, action: BulkActionKind): void {
  if (action === 'delete') requireCanHardDeleteUsers(actor);
  else requireCanChangeUsers(actor);
}

/** 400 for a selection by filters over the limit (`count` is counted up to the limit plus one). */
export function requireSelectionWithinLimit(count: number): void {
  if (count > MAX_SELECTION_BY_FILTERS) throw invalid([{ field: 'body.filters', message: BULK_MESSAGES.tooLarge }], BULK_MESSAGES.tooLarge);
}

/** Only the person who started a job reads it: anyone else is answered as for a missing one. */
export function requireBulkActionStarter<J extends { actor_user_id: string }>(actor: Actor, job: J | undefined): J {
  if (!job || job.actor_user_id !== actor.userId) throw notFound(BULK_MESSAGES.notFound);
  return job;
}

/** One job of a person at a time (429 otherwise): nobody queues work that holds everyone else's jobs back. */
export function requireNoRunningJob(running: boolean): void {
  if (running) throw tooMany(BULK_MESSAGES.alreadyRunning);
}

type TargetAssignment = ScopedAssignment & { roleCode: string; roleType: 'INTERNAL' | 'EXTERNAL' };

/**
 * One person of a deactivation (wanted false) or a reactivation (true), decided as setActive decides them for a
 * job (users-edit.service.ts, refuseUnchanged): a user the starter may change, not already in the wanted status,
 * whose account is theirs to change (every assignment within reach). The DomainError's message is the refusal.
 */
export function requireStatusChangeOf<T extends { id: string; user_type: UserType; is_active: boolean }>(
  actor: Actor,
  target: T | undefined,
  assignments: readonly TargetAssignment[],
  wanted: boolean,
): T {
  const user = requireChangeableUser(actor, userScope(actor, 'USER_CREATE'), target, assignments);
  requireStatusChange(user.is_active, wanted);
  requireCanChangeAccount(actor, assignments);
  return user;
}

/** What a refusal names of the person: their name and e-mail when the starter may read them (USER_LIST), else nobody. */
export function personSeenBy(
  actor: Actor | null,
  target: { id: string; user_type: UserType; first_name: string; last_name: string; email: string } | undefined,
  assignments: readonly ScopedAssignment[],
): { name: string; email: string } | null {
  if (!actor || !target) return null;
  try {
    requireCanReadUser(actor, target.id);
    requireUserVisible(actor, userScope(actor, 'USER_LIST'), target, assignments);
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
  return { name: `${target.first_name} ${target.last_name}`, email: target.email };
}
