// The benchmark refuses a database whose backfills the server's jobs would still be running during the measures.
import { describe, expect, it } from 'vitest';
import { pendingBackfills, type BackfillState } from '../../bench/backfills.ts';

const through: BackfillState = { userSearchDone: true, userWordsDone: true, userRolesDone: true, userOverlapsDone: true, subjectSearchThrough: 500, newestEntry: 520, subjectSearchUnfilled: false, organizationActionsThrough: 200, organizationActionsUpto: 200 };

describe('the backfills a benchmark database must be through', () => {
  it('accepts a database whose backfills are through, entries written by the server since included', () => {
    expect(pendingBackfills(through)).toEqual([]);
  });

  it('names each backfill not through, with the entries left', () => {
    const pending = pendingBackfills({
      userSearchDone: false,
      userWordsDone: false,
      userRolesDone: false,
      userOverlapsDone: false,
      subjectSearchThrough: 100,
      newestEntry: 500,
      subjectSearchUnfilled: true,
      organizationActionsThrough: 150,
      organizationActionsUpto: 200,
    });
    expect(pending).toHaveLength(6);
    expect(pending[0]).toContain('migration 0019');
    expect(pending[1]).toContain('migration 0039');
    expect(pending[2]).toContain('migration 0040');
    expect(pending[3]).toContain('migration 0041');
    expect(pending[4]).toContain('entries 101 to 500');
    expect(pending[5]).toContain('entries 151 to 200');
  });
});
