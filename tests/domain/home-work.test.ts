// The Accueil's 'À traiter' lines from the server's counts (src/domain/home-work.ts): order, zeros left out, the
// requests pending for long as a part of the pending ones' line.
import { describe, expect, it } from 'vitest';
import { homeWorkLines } from '../../src/domain/home-work';

describe('homeWorkLines', () => {
  it('lists the back office’s items in order, the long-pending ones within the pending line', () => {
    expect(homeWorkLines({ pendingRequests: 3, longPendingRequests: 1, expiringRequests: 2, setupLinkExpiredUsers: 4 })).toEqual([
      { item: 'pendingRequests', count: 3, detail: { item: 'longPendingRequests', count: 1 } },
      { item: 'expiringRequests', count: 2 },
      { item: 'setupLinkExpiredUsers', count: 4 },
    ]);
  });

  it('leaves out the items at 0 and those the person may not see', () => {
    expect(homeWorkLines({ pendingRequests: 2, longPendingRequests: 0, expiringRequests: 0 })).toEqual([{ item: 'pendingRequests', count: 2 }]);
    expect(homeWorkLines({ myPendingRequests: 0, invitationNotAcceptedUsers: 5 })).toEqual([{ item: 'invitationNotAcceptedUsers', count: 5 }]);
    expect(homeWorkLines({})).toEqual([]);
  });
});
