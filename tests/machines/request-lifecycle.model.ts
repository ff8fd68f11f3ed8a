// The request-lifecycle machine's model (rules/request-lifecycle.machine.ts, issue 22): the test replays its paths,
// `npm run charts` counts them and measures coverage. Every mover the policy can describe is tried on every move.
import type { SnapshotFrom } from 'xstate';
import { requestLifecycleMachine, type RequestLifecycleEvent, type RequestMover } from '../../rules/request-lifecycle.machine';
import type { MachineModel } from '../model/harness';

const deciderBackOffice: RequestMover = { isBackOffice: true, holdsUserCreate: true, isRequester: false };
const readOnlyBackOffice: RequestMover = { isBackOffice: true, holdsUserCreate: false, isRequester: false };
const requester: RequestMover = { isBackOffice: false, holdsUserCreate: true, isRequester: true };
const otherEmployer: RequestMover = { isBackOffice: false, holdsUserCreate: true, isRequester: false };
const MOVERS = { deciderBackOffice, readOnlyBackOffice, requester, otherEmployer };

const nameOf = (by: RequestMover) => Object.entries(MOVERS).find(([, m]) => m === by)?.[0] ?? 'someone';
const EXPIRES_AT = Date.UTC(2026, 11, 1, 9);

const events: RequestLifecycleEvent[] = [
  ...(['request.approve', 'request.reject', 'request.cancel'] as const).flatMap((type) => Object.values(MOVERS).map((by) => ({ type, by }))),
  { type: 'request.expire', now: EXPIRES_AT - 1, expiresAt: EXPIRES_AT },
  { type: 'request.expire', now: EXPIRES_AT, expiresAt: EXPIRES_AT },
];

export const model: MachineModel<typeof requestLifecycleMachine> = {
  machine: requestLifecycleMachine,
  events,
  serializeState: (s: SnapshotFrom<typeof requestLifecycleMachine>) => JSON.stringify(s.value),
  describeEvent: (e) => ('by' in e ? `${e.type}(${nameOf(e.by)})` : 'now' in e ? `${e.type}(${e.now >= e.expiresAt ? 'due' : 'early'})` : e.type),
  invariant: (s, last) => {
    if (!last) return;
    // Only the back office holding USER_CREATE decides; only the requester or that back office cancels; expiry only once due.
    if ((s.matches('approved') || s.matches('rejected')) && (last.type === 'request.approve' || last.type === 'request.reject')) {
      if (last.by !== deciderBackOffice) throw new Error(`decided by ${nameOf(last.by)}`);
    }
    if (s.matches('cancelled') && last.type === 'request.cancel' && last.by !== deciderBackOffice && last.by !== requester) throw new Error(`cancelled by ${nameOf(last.by)}`);
    if (s.matches('expired') && last.type === 'request.expire' && last.now < last.expiresAt) throw new Error('expired before its time');
  },
};
