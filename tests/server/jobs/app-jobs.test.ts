// The server runs the scheduled jobs between ready and close, and shows them on app.jobs (for /metrics).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRunEvent } from '../../../server/jobs/runner.ts';
import { backends } from '../db/test-databases.ts';
import { fakeClock } from '../support/fake-clock.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const T0 = Date.UTC(2026, 10, 2, 9);

describe.each(backends)('the scheduled jobs of the server on $name', (backend) => {
  const clock = fakeClock(T0);
  const events: JobRunEvent[] = [];
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(backend, { jobClock: clock });
    t.app.jobs.onRunFinished((event) => void events.push(event));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('runs the outbox retention, the deletion of expired rows, the bulk actions\' and the journal\'s retentions, the journal\'s and the search\'s backfills and the requests\' lifecycle once ready, and says so on app.jobs', async () => {
    clock.advance(0);
    await expect.poll(() => events).toMatchObject([
      { job: 'outbox.retention', outcome: 'succeeded', summary: { purged: 0 } },
      { job: 'expired-rows.purge', outcome: 'succeeded' },
      { job: 'bulk-actions.retention', outcome: 'succeeded', summary: { purged: 0 } },
      { job: 'audit.retention', outcome: 'succeeded', summary: { purged: 0 } },
      { job: 'audit.backfill', outcome: 'succeeded' },
      { job: 'audit.organization-actions', outcome: 'succeeded', summary: { filled: 0, remaining: 0 } },
      { job: 'search.backfill', outcome: 'succeeded', summary: { batches: 0, done: 1 } },
      { job: 'invitations.expiry', outcome: 'succeeded' },
      { job: 'invitations.expiry-reminder', outcome: 'succeeded' },
      { job: 'invitations.pending-digest', outcome: 'succeeded' },
      { job: 'users.dormancy-deletion', outcome: 'succeeded', summary: { deleted: 0, failed: 0 } },
      { job: 'users.dormancy-deactivation', outcome: 'succeeded', summary: { deactivated: 0, failed: 0 } },
      { job: 'users.dormancy-warning', outcome: 'succeeded' },
    ]);
    const states = await t.app.jobs.states();
    expect(states.find((s) => s.name === 'outbox.retention')).toMatchObject({ lastOutcome: 'succeeded', nextRunAt: new Date(T0 + 3600_000) });
    expect(states.find((s) => s.name === 'expired-rows.purge')).toMatchObject({ lastOutcome: 'succeeded', nextRunAt: new Date(T0 + 5 * 60_000) });
    expect(states.find((s) => s.name === 'audit.retention')).toMatchObject({ lastOutcome: 'succeeded', nextRunAt: new Date(T0 + 3600_000) });
    expect(states.find((s) => s.name === 'audit.backfill')).toMatchObject({ lastOutcome: 'succeeded', nextRunAt: new Date(T0 + 5 * 60_000) });
  });

  it('stops looking at the jobs when the server closes', async () => {
    await expect.poll(() => clock.pending()).toEqual([30_000]);
    await t.app.close();
    expect(clock.pending()).toEqual([]);
  });
});
