// The Accueil's counts (GET /api/v2/home): for each item the actor sees (home.policy.ts), the exact total of the
// list it links to, read by that list's own total function with that list's filters and reach, so that both agree.
// An item is a line of HOME_COUNTS and one of home.policy.ts.
import type { Actor } from '../../core/actor.ts';
import type { ServiceDeps } from '../services.ts';
import { countInvitationsMadeBy } from '../invitations/invitations-lifecycle.repository.ts';
import { requesterReach } from '../invitations/invitations.policy.ts';
import { invitationsTotal } from '../invitations/invitations.repository.ts';
import { EXPIRING_WITHIN_DAYS, waitingMadeBefore, type WaitingFilter } from '../invitations/request-lifecycle.model.ts';
import { userTotal } from '../users/users-list.repository.ts';
import { userFilterFor } from '../users/users-read.service.ts';
import type { AccountState } from '../users/users.model.ts';
import { homeItemsFor, type HomeItem } from './home.policy.ts';

export interface Home {
  reminderPendingDays: number;
  expiringWithinDays: number;
  counts: Partial<Record<HomeItem, number>>;
}

type Count = (deps: ServiceDeps, actor: Actor, now: Date) => Promise<number>;

/** listInvitations?status=pending[&waiting=…]. */
const pendingRequests =
  (waiting?: WaitingFilter): Count =>
  ({ db, listTotals, requests }, _actor, now) =>
    invitationsTotal(db, { statuses: ['PENDING'], pendingMadeBefore: waiting ? waitingMadeBefore(waiting, now, requests) : undefined }, listTotals);

/** listUsers?accountState=…, within the actor's reach. */
const usersIn =
  (accountState: AccountState): Count =>
  async ({ db, listTotals, dormancy }, actor, now) =>
    userTotal(db, await userFilterFor(db, actor, { accountState }, { now, warnAfterDays: dormancy.warnAfterDays }), listTotals);

const HOME_COUNTS: Readonly<Record<HomeItem, Count>> = {
  pendingRequests: pendingRequests(),
  longPendingRequests: pendingRequests('longPending'),
  expiringRequests: pendingRequests('expiringSoon'),
  setupLinkExpiredUsers: usersIn('setupLinkExpired'),
  // listMyInvitations?status=pending.
  myPendingRequests: ({ db }, actor) => countInvitationsMadeBy(db, actor.userId, { statuses: ['PENDING'], organizationIds: requesterReach(actor) }),
  invitationNotAcceptedUsers: usersIn('invitationNotAccepted'),
  dormantUsers: usersIn('dormant'),
};

export function homeService(deps: ServiceDeps) {
  return {
    /** GET /api/v2/home: the counts of the items the actor sees, read together. */
    async get(actor: Actor): Promise<Home> {
      const now = deps.now();
      const items = homeItemsFor(actor);
      const counts = await Promise.all(items.map((item) => HOME_COUNTS[item](deps, actor, now)));
      return {
        reminderPendingDays: deps.requests.reminderPendingDays,
        expiringWithinDays: EXPIRING_WITHIN_DAYS,
        counts: Object.fromEntries(items.map((item, i) => [item, counts[i]!])),
      };
    },
  };
}
