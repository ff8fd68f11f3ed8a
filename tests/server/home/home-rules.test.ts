// The Accueil's pure rules (issue 24): who sees which item (home.policy.ts), the moments the `waiting` filters and the
// account states compare with (request-lifecycle.model.ts, users.model.ts).
import { describe, expect, it } from 'vitest';
import { actor } from '../support/actor.ts';
import { homeItemsFor } from '../../../server/features/home/home.policy.ts';
import { EXPIRING_WITHIN_DAYS, waitingMadeBefore } from '../../../server/features/invitations/request-lifecycle.model.ts';
import { accountStateFilter } from '../../../server/features/users/users.model.ts';

const DAY = 24 * 3600_000;
const organizationUser = (permissions: string[]) =>
  actor({ userType: 'ORGANIZATION', isBackOffice: false, permissions: new Set(permissions), scope: new Set(['o-1']), parentIds: new Set(), permissionScopes: new Map() });

describe('homeItemsFor', () => {
  it('gives the back office the requests that wait, and the expired links and dormant accounts only with USER_LIST', () => {
    expect(homeItemsFor(actor({ permissions: new Set(['USER_LIST', 'USER_CREATE']) }))).toEqual(['pendingRequests', 'longPendingRequests', 'expiringRequests', 'setupLinkExpiredUsers', 'dormantUsers']);
    expect(homeItemsFor(actor({}))).toEqual(['pendingRequests', 'longPendingRequests', 'expiringRequests']);
  });

  it('gives an organization user their own requests with USER_CREATE, and their users who never signed in and their dormant ones with USER_LIST', () => {
    expect(homeItemsFor(organizationUser(['USER_LIST', 'USER_CREATE']))).toEqual(['myPendingRequests', 'invitationNotAcceptedUsers', 'dormantUsers']);
    expect(homeItemsFor(organizationUser(['USER_LIST']))).toEqual(['invitationNotAcceptedUsers', 'dormantUsers']);
    expect(homeItemsFor(organizationUser([]))).toEqual([]);
  });
});

describe('waitingMadeBefore', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  it('keeps, for longPending, the requests made REMINDER_PENDING_DAYS days ago or more', () => {
    expect(waitingMadeBefore('longPending', now, { expiryDays: 30, reminderPendingDays: 7 })).toEqual(new Date(now.getTime() - 7 * DAY));
  });
  it('keeps, for expiringSoon, the requests whose period ends within 7 days', () => {
    expect(EXPIRING_WITHIN_DAYS).toBe(7);
    expect(waitingMadeBefore('expiringSoon', now, { expiryDays: 30, reminderPendingDays: 7 })).toEqual(new Date(now.getTime() - 23 * DAY));
  });
});

describe('accountStateFilter', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const clock = { now, linkLifetimeMs: 7 * DAY, warnAfterDays: 365 };
  it('compares no date for invitationNotAccepted, and the link’s lifetime for setupLinkExpired', () => {
    expect(accountStateFilter('invitationNotAccepted', clock)).toEqual({ state: 'invitationNotAccepted', linkSentBefore: null, at: clock.now });
    expect(accountStateFilter('setupLinkExpired', clock)).toEqual({ state: 'setupLinkExpired', linkSentBefore: new Date('2026-11-20T12:00:00Z'), at: clock.now });
  });
  it('reads dormancy from DORMANCY_WARN_AFTER_DAYS before now, and only the warned accounts when the warning is off', () => {
    expect(accountStateFilter('dormant', clock)).toEqual({ state: 'dormant', cutoff: new Date('2025-11-27T12:00:00Z'), at: clock.now });
    expect(accountStateFilter('dormant', { ...clock, warnAfterDays: 0 })).toEqual({ state: 'dormant', cutoff: null, at: clock.now });
  });
});
