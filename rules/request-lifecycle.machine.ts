// The life of a request for administrator rights or a role (issue 22): which moves between its statuses exist,
// and who may make each. Pure: the server's services ask it before every move (server/features/invitations/
// request-lifecycle.model.ts); /workflows draws it. The screens' own decision machine stays in src/machines.
import { getNextSnapshot, setup } from 'xstate';

/** The statuses of a request, as stored and as the API names them. */
export type RequestStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'EXPIRED' | 'CANCELLED';

/** Who asks for a move, as the server's policy establishes it (facts, not permissions to look up). */
export interface RequestMover {
  /** A back-office user. */
  isBackOffice: boolean;
  /** Holding USER_CREATE: the back office's right to decide (and to cancel another person's request). */
  holdsUserCreate: boolean;
  /** The person who made the request. */
  isRequester: boolean;
}

export type RequestLifecycleEvent =
  | { type: 'request.approve'; by: RequestMover }
  | { type: 'request.reject'; by: RequestMover }
  | { type: 'request.cancel'; by: RequestMover }
  /** The portal's clock: `now` and the request's expiry, in milliseconds. */
  | { type: 'request.expire'; now: number; expiresAt: number };

const decider = (by: RequestMover) => by.isBackOffice && by.holdsUserCreate;

/**
 * pending → approved or rejected (the back office holding USER_CREATE), cancelled (the requester, or the back
 * office holding USER_CREATE), expired (the portal, once the request's period has passed). Every other status
 * is final: nothing moves a request out of it.
 */
export const requestLifecycleMachine = setup({
  types: { events: {} as RequestLifecycleEvent },
  guards: {
    canDecide: ({ event }) => 'by' in event && decider(event.by),
    canCancel: ({ event }) => 'by' in event && (event.by.isRequester || decider(event.by)),
    isDue: ({ event }) => event.type === 'request.expire' && event.now >= event.expiresAt,
  },
}).createMachine({
  id: 'request-lifecycle',
  initial: 'pending',
  states: {
    pending: {
      on: {
        'request.approve': { guard: 'canDecide', target: 'approved' },
        'request.reject': { guard: 'canDecide', target: 'rejected' },
        'request.cancel': { guard: 'canCancel', target: 'cancelled' },
        'request.expire': { guard: 'isDue', target: 'expired' },
      },
    },
    approved: { type: 'final' },
    rejected: { type: 'final' },
    expired: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

type LifecycleState = 'pending' | 'approved' | 'rejected' | 'expired' | 'cancelled';

const STATE_OF: Record<RequestStatus, LifecycleState> = {
  PENDING: 'pending',
  APPROVED: 'approved',
  REJECTED: 'rejected',
  EXPIRED: 'expired',
  CANCELLED: 'cancelled',
};
const STATUS_OF = Object.fromEntries(Object.entries(STATE_OF).map(([status, state]) => [state, status])) as Record<LifecycleState, RequestStatus>;

/** The status a request in `status` reaches through `event`, or null when the machine refuses the move. */
export function nextRequestStatus(status: RequestStatus, event: RequestLifecycleEvent): RequestStatus | null {
  const from = requestLifecycleMachine.resolveState({ value: STATE_OF[status] });
  const to = getNextSnapshot(requestLifecycleMachine, from, event);
  return to.value === from.value ? null : STATUS_OF[to.value as LifecycleState];
}

/**
 * The answers of canMoveRequest, asked of the machine once per status, move and kind of person (5 × 3 × 8 at most):
 * a page of requests asks it three times a row, and running the machine each time was a tenth of the server's work
 * for the back office's list of pending requests (its snapshots and their garbage).
 */
const moves = new Map<string, boolean>();

/** Whether the moves of `type` exist from `status` for this person (what the answers' allowedActions list). */
export function canMoveRequest(status: RequestStatus, type: 'request.approve' | 'request.reject' | 'request.cancel', by: RequestMover): boolean {
  const key = `${status} ${type} ${Number(by.isBackOffice)}${Number(by.holdsUserCreate)}${Number(by.isRequester)}`;
  let can = moves.get(key);
  if (can === undefined) moves.set(key, (can = nextRequestStatus(status, { type, by }) !== null));
  return can;
}
