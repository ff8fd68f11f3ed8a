// Who may start an action on many users, and read where it stands. Pure. Each person of the selection is then
// decided by the single action's own policy (users.policy.ts), as if asked alone.
import type { Actor } from '../../core/actor.ts';
import { invalid, notFound, tooMany } from '../../core/errors.ts';
import type { BulkActionKind } from '../../db/schema.ts';
import { requireCanChangeUsers, requireCanHardDeleteUsers } from './users.policy.ts';

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
