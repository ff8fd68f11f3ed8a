// The reports of actions on many users (server/jobs/bulk-actions-retention.ts): jobs completed more than 30 days
// ago are deleted with their persons; newer ones and running ones stay. A fake clock moves time.
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createJobRunner } from '../../../server/jobs/runner.ts';
import { bulkActionsRetentionJob } from '../../../server/jobs/bulk-actions-retention.ts';
import { scheduledJobs } from '../../../server/jobs/index.ts';
import { backends } from '../db/test-databases.ts';
import { fakeClock } from '../support/fake-clock.ts';
import { DAY, migratedDatabase, silent } from '../support/migrated-database.ts';

const T0 = Date.UTC(2026, 10, 27, 9);

describe.each(backends)('the retention of actions on many users on $name', (backend) => {
  const db = migratedDatabase(backend, ['bulk_actions']);

  /** A job of one person, completed this many days before T0 (null: still running). */
  async function job(name: string, finishedDaysAgo: number | null) {
    const finished = finishedDaysAgo === null ? null : new Date(T0 - finishedDaysAgo * DAY);
    const { id } = await db()
      .insertInto('bulk_actions')
      .values({ actor_user_id: randomUUID(), action: 'deactivate', total: 1, status: finished ? 'completed' : 'running', finished_at: finished, created_at: new Date(T0 - 40 * DAY) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db().insertInto('bulk_action_targets').values({ bulk_action_id: id, position: 1, user_id: randomUUID(), outcome: 'refused', reason: name, name, email: `${name}@exemple.fr`, done_at: finished }).execute();
  }
  const kept = async () => (await db().selectFrom('bulk_action_targets').select('reason').orderBy('reason').execute()).map((r) => r.reason);
  const run = (now: number, batchSize?: number, signal = new AbortController().signal) =>
    bulkActionsRetentionJob({ db: db(), ...(batchSize ? { batchSize } : {}) }).run({ now: new Date(now), signal, log: silent });

  it('deletes the jobs completed more than 30 days ago with their persons, and keeps newer and running ones', async () => {
    await job('ancien', 31);
    await job('recent', 29);
    await job('en-cours', null);
    expect(await run(T0)).toEqual({ purged: 1 });
    expect(await kept()).toEqual(['en-cours', 'recent']);
    expect(await db().selectFrom('bulk_actions').select('id').execute()).toHaveLength(2);
  });

  it('deletes in batches until none is left, and stops between batches when the server stops', async () => {
    for (let i = 0; i < 5; i++) await job(`ancien-${i}`, 40 + i);
    const stopping = new AbortController();
    stopping.abort();
    expect(await run(T0, 2, stopping.signal)).toEqual({ purged: 0 });
    expect(await run(T0, 2)).toEqual({ purged: 5 });
    expect(await kept()).toEqual([]);
  });

  it('is a job of the runner, and purges as days pass on its clock', async () => {
    const clock = fakeClock(T0);
    const retention = scheduledJobs({ db: db(), outboxRetentionDays: 30, auditRetentionDays: 365, expiredRowPurges: [] }).find((j) => j.name === 'bulk-actions.retention')!;
    const runner = createJobRunner({ db: db(), jobs: [retention], log: silent, clock });
    await job('bientot', 29);
    expect(await runner.tick()).toMatchObject([{ job: 'bulk-actions.retention', outcome: 'succeeded', summary: { purged: 0 } }]);
    clock.advance(2 * DAY);
    expect(await runner.tick()).toMatchObject([{ job: 'bulk-actions.retention', outcome: 'succeeded', summary: { purged: 1 } }]);
    expect(await kept()).toEqual([]);
  });
});
