// The business limit of creations per person (issue 19): at most USER_CREATIONS_PER_HOUR users and
// INVITATIONS_PER_HOUR requests for administrator rights in any hour (defaults 200 and 100), answered 429.
// Counted from the audit journal, inside the creating transaction: one limit for every node of the cluster.
import type { Transaction } from 'kysely';
import type { Actor } from '../../core/actor.ts';
import { DomainError } from '../../core/errors.ts';
import type { AuditAction, Database } from '../../db/schema.ts';
import { countActorActionsInLastHour, lockActorAction } from './audit.repository.ts';

/** Creations a person may make in an hour; 0: no limit. */
export interface CreationLimits {
  usersPerHour: number;
  invitationsPerHour: number;
}

/** A limit reached: 429, with the seconds until the oldest creation counted leaves the hour (Retry-After). */
export class CreationLimitError extends DomainError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super('tooMany', message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

const WHAT: Record<'user' | 'invitation', { action: AuditAction; limit: (limits: CreationLimits) => number; text: (n: number) => string }> = {
  // Every account the person created counts, an approval creating the invitee's included (its 'user.create' entry).
  user: { action: 'user.create', limit: (l) => l.usersPerHour, text: (n) => `${n} utilisateurs créés` },
  invitation: { action: 'invitation.create', limit: (l) => l.invitationsPerHour, text: (n) => `${n} demandes créées` },
};

export function creationLimitMessage(kind: 'user' | 'invitation', limit: number, minutes: number): string {
  return `Vous avez atteint la limite de ${WHAT[kind].text(limit)} par heure. Réessayez dans ${minutes} minute${minutes > 1 ? 's' : ''}.`;
}

/**
 * In the creating transaction, before writing: refuses when the actor already made `limit` such creations in the
 * last hour. The actor's lock for that kind is held to the commit, so that concurrent creations of one person,
 * on any node, are counted one after the other and the limit holds exactly.
 */
export async function requireWithinCreationLimit(trx: Transaction<Database>, actor: Actor, kind: 'user' | 'invitation', limits: CreationLimits): Promise<void> {
  const { action, limit: limitOf } = WHAT[kind];
  const limit = limitOf(limits);
  if (limit === 0) return;
  await lockActorAction(trx, actor.userId, action);
  const { count, secondsUntilOldestLeaves } = await countActorActionsInLastHour(trx, actor.userId, action);
  if (count < limit) return;
  const seconds = Math.max(1, secondsUntilOldestLeaves);
  throw new CreationLimitError(creationLimitMessage(kind, limit, Math.ceil(seconds / 60)), seconds);
}
