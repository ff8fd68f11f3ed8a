// The moves of a request between its statuses, as the request-lifecycle machine (rules/request-lifecycle.machine.ts)
// allows them, turned into the answers people read. Pure: the services give it the row, the caller and the time.
import { nextRequestStatus, type RequestLifecycleEvent, type RequestMover, type RequestStatus } from '../../../rules/request-lifecycle.machine.ts';
import type { Actor } from '../../core/actor.ts';
import { conflict, forbidden } from '../../core/errors.ts';
import { frenchDate } from '../exports/csv.model.ts';
import { DAY_MS } from '../../core/time.ts';


export const LIFECYCLE_MESSAGES = {
  alreadyDecided: 'Cette demande a déjà été traitée.',
  expired: (date: string) => `Cette demande a expiré le ${date} : elle ne peut plus être approuvée ni rejetée.`,
  cancelled: 'Cette demande a été annulée : elle ne peut plus être approuvée ni rejetée.',
  notCancellable: "Cette demande n'est plus en attente : elle ne peut plus être annulée.",
  expiredNotCancellable: (date: string) => `Cette demande a expiré le ${date} : elle ne peut plus être annulée.`,
  cancelNeedsUserCreate: 'Seuls la personne qui a fait la demande et le back-office disposant de la permission USER_CREATE peuvent l’annuler.',
  decideNeedsUserCreate: 'Seul le back-office disposant de la permission USER_CREATE peut approuver ou rejeter une demande.',
} as const;

/** What the lifecycle needs of a request. */
export interface LifecycleRow {
  status: RequestStatus;
  created_at: Date;
  processed_at: Date | null;
  sender_user_id: string | null;
}

/** When a request made at `createdAt` expires, with a period of `expiryDays` days. */
export function requestExpiresAt(createdAt: Date, expiryDays: number): Date {
  return new Date(createdAt.getTime() + expiryDays * DAY_MS);
}

/** The facts the machine's guards read about the caller. */
export function moverOf(actor: Actor, row: Pick<LifecycleRow, 'sender_user_id'>): RequestMover {
  return { isBackOffice: actor.isBackOffice, holdsUserCreate: actor.permissions.has('USER_CREATE'), isRequester: row.sender_user_id === actor.userId };
}

export type PersonMove = 'request.approve' | 'request.reject' | 'request.cancel';

/** When the request expired, or will: its recorded moment once EXPIRED, else its creation plus the period. */
function expiryOf(row: LifecycleRow, expiryDays: number): Date {
  return row.status === 'EXPIRED' && row.processed_at ? row.processed_at : requestExpiresAt(row.created_at, expiryDays);
}

/**
 * The status `move` by `actor` leads to, else the refusal (409 for a request no longer pending or past its
 * period, 403 for a person the machine does not let make it). A pending request past its period is expired
 * for every move, whether the expiry job has marked it yet or not.
 */
export function requireMove(row: LifecycleRow, move: PersonMove, actor: Actor, now: Date, expiryDays: number): RequestStatus {
  const expiresAt = expiryOf(row, expiryDays);
  const cancelling = move === 'request.cancel';
  const expire: RequestLifecycleEvent = { type: 'request.expire', now: now.getTime(), expiresAt: expiresAt.getTime() };
  const status = nextRequestStatus(row.status, expire) ?? row.status;
  if (status === 'EXPIRED') throw conflict((cancelling ? LIFECYCLE_MESSAGES.expiredNotCancellable : LIFECYCLE_MESSAGES.expired)(frenchDate(expiresAt)));
  if (status === 'CANCELLED') throw conflict(cancelling ? LIFECYCLE_MESSAGES.notCancellable : LIFECYCLE_MESSAGES.cancelled);
  if (status !== 'PENDING') throw conflict(cancelling ? LIFECYCLE_MESSAGES.notCancellable : LIFECYCLE_MESSAGES.alreadyDecided);
  const next = nextRequestStatus(status, { type: move, by: moverOf(actor, row) });
  if (!next) throw forbidden(cancelling ? LIFECYCLE_MESSAGES.cancelNeedsUserCreate : LIFECYCLE_MESSAGES.decideNeedsUserCreate);
  return next;
}

/** Whether the expiry job moves this request now (pending, its period passed). */
export function isDueToExpire(row: LifecycleRow, now: Date, expiryDays: number): boolean {
  return nextRequestStatus(row.status, { type: 'request.expire', now: now.getTime(), expiresAt: requestExpiresAt(row.created_at, expiryDays).getTime() }) === 'EXPIRED';
}

/** The `waiting` filters of the back office's list (OpenAPI listInvitations): pending requests that need a look. */
export type WaitingFilter = 'longPending' | 'expiringSoon';

/** expiringSoon: the requests whose period ends within this many days. */
export const EXPIRING_WITHIN_DAYS = 7;

/**
 * The latest creation of a pending request a `waiting` filter keeps: longPending, made `reminderPendingDays` days ago
 * or more (the back office's daily digest); expiringSoon, expiring within EXPIRING_WITHIN_DAYS days (or past its
 * period and not yet marked by the expiry job).
 */
export function waitingMadeBefore(filter: WaitingFilter, now: Date, config: { expiryDays: number; reminderPendingDays: number }): Date {
  const days = filter === 'longPending' ? -config.reminderPendingDays : EXPIRING_WITHIN_DAYS - config.expiryDays;
  return new Date(now.getTime() + days * DAY_MS);
}
