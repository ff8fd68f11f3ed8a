// The outbox's retention (server/jobs/outbox-retention.ts): SENT e-mails hold account set-up links and are
// deleted once older than OUTBOX_RETENTION_DAYS; PENDING and FAILED ones are never. A fake clock moves time.
import { describe, expect, it } from 'vitest';
import type { OutboxTable } from '../../../server/db/schema.ts';
import { createJobRunner } from '../../../server/jobs/runner.ts';
import { outboxRetentionJob } from '../../../server/jobs/outbox-retention.ts';
import { scheduledJobs } from '../../../server/jobs/index.ts';
import { backends } from '../db/test-databases.ts';
import { fakeClock } from '../support/fake-clock.ts';
import { DAY, migratedDatabase, silent } from '../support/migrated-database.ts';

const T0 = Date.UTC(2026, 10, 2, 9);

describe.each(backends)('the outbox retention on $name', (backend) => {
  const db = migratedDatabase(backend, ['outbox']);

  async function mail(subject: string, status: 'PENDING' | 'SENT' | 'FAILED', daysAgo: number) {
    const at = new Date(T0 - daysAgo * DAY);
    const row: Partial<Record<keyof OutboxTable, unknown>> = { kind: 'account.invitation', recipient: 'marie@exemple.fr', subject, body: `lien ${subject}`, status, created_at: at };
    if (status === 'SENT') row.sent_at = at;
    await db().insertInto('outbox').values(row as never).execute();
  }
  const subjects = async () => (await db().selectFrom('outbox').select('subject').orderBy('subject').execute()).map((r) => r.subject);
  const run = (job: ReturnType<typeof outboxRetentionJob>, now: number) => job.run({ now: new Date(now), signal: new AbortController().signal, log: silent });

  it('deletes the sent e-mails older than the retention, and never a pending or failed one however old', async () => {
    await mail('envoyé il y a 31 jours', 'SENT', 31);
    await mail('envoyé il y a 29 jours', 'SENT', 29);
    await mail('en attente depuis 100 jours', 'PENDING', 100);
    await mail('en échec depuis 100 jours', 'FAILED', 100);
    expect(await run(outboxRetentionJob({ db: db(), retentionDays: 30 }), T0)).toEqual({ purged: 1 });
    expect(await subjects()).toEqual(['en attente depuis 100 jours', 'en échec depuis 100 jours', 'envoyé il y a 29 jours']);
  });

  it('deletes in batches until none is left', async () => {
    for (let i = 0; i < 5; i++) await mail(`vieux ${i}`, 'SENT', 40 + i);
    await mail('récent', 'SENT', 1);
    expect(await run(outboxRetentionJob({ db: db(), retentionDays: 30, batchSize: 2 }), T0)).toEqual({ purged: 5 });
    expect(await subjects()).toEqual(['récent']);
  });

  it('is the first job of the runner, and purges as days pass on its clock', async () => {
    const clock = fakeClock(T0);
    const jobs = scheduledJobs({ db: db(), outboxRetentionDays: 30, auditRetentionDays: 365, expiredRowPurges: [] });
    expect(jobs.map((job) => job.name)).toEqual([
      'outbox.retention',
      'expired-rows.purge',
      'bulk-actions.retention',
      'audit.retention',
      'audit.backfill',
      'audit.organization-actions',
      'search.backfill',
      'invitations.expiry',
      'invitations.expiry-reminder',
      'invitations.pending-digest',
    ]);
    const runner = createJobRunner({ db: db(), jobs: jobs.slice(0, 1), log: silent, clock });
    await mail('envoyé il y a 29 jours', 'SENT', 29);
    expect(await runner.tick()).toMatchObject([{ job: 'outbox.retention', outcome: 'succeeded', summary: { purged: 0 } }]);
    clock.advance(2 * DAY);
    expect(await runner.tick()).toMatchObject([{ job: 'outbox.retention', outcome: 'succeeded', summary: { purged: 1 } }]);
    expect(await subjects()).toEqual([]);
  });
});
