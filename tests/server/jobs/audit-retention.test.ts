// The journal's retention (server/jobs/audit-retention.ts): entries older than AUDIT_RETENTION_DAYS are deleted,
// with the organizations they concern, in batches; newer ones stay. A fake clock moves time.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrate } from '../../../server/db/migrate.ts';
import { writeAudit } from '../../../server/features/audit/audit.repository.ts';
import { createJobRunner } from '../../../server/jobs/runner.ts';
import { auditRetentionJob } from '../../../server/jobs/audit-retention.ts';
import { scheduledJobs } from '../../../server/jobs/index.ts';
import { backends, createTestDatabase, type TestDatabase } from '../db/test-databases.ts';
import { fakeClock } from '../support/fake-clock.ts';

const T0 = Date.UTC(2026, 10, 2, 9);
const DAY = 24 * 3600_000;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe.each(backends)('the journal retention on $name', (backend) => {
  let testDb: TestDatabase;
  let organizationId: string;
  const db = () => testDb.handle.db;

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    await migrate(testDb.handle);
    organizationId = (await db().insertInto('organizations').values({ code: '787441799', name: 'Clinique des Tilleuls', type: 'SIREN' }).returning('id').executeTakeFirstOrThrow()).id;
  }, 60_000);
  afterAll(async () => {
    await testDb?.dispose();
  });
  beforeEach(async () => {
    await db().deleteFrom('audit_log').execute();
    await db().deleteFrom('scheduled_jobs').execute();
  });

  async function entry(name: string, daysAgo: number) {
    await writeAudit(db(), { actor: { userId: null, email: 'ops@exemple.fr' }, action: 'user.update', entityType: 'user', entityId: name, organizationId, changes: { city: { before: null, after: name } } });
    await db().updateTable('audit_log').set({ at: new Date(T0 - daysAgo * DAY) }).where('entity_id', '=', name).execute();
  }
  const kept = async () => (await db().selectFrom('audit_log').select('entity_id').orderBy('entity_id').execute()).map((r) => r.entity_id);
  const organizationsKept = async () => Number((await sql<{ n: number }>`select count(*)::int as n from audit_log_organizations`.execute(db())).rows[0]!.n);
  const total = async () => Number((await sql<{ n: number }>`select coalesce(sum(n), 0)::int as n from audit_counts`.execute(db())).rows[0]!.n);
  const run = (job: ReturnType<typeof auditRetentionJob>, now: number) => job.run({ now: new Date(now), signal: new AbortController().signal, log: silent });

  it('deletes the entries older than the retention with their organizations, and keeps the others and the exact total', async () => {
    await entry('il y a 366 jours', 366);
    await entry('il y a 364 jours', 364);
    await entry('hier', 1);
    expect(await run(auditRetentionJob({ db: db(), retentionDays: 365 }), T0)).toEqual({ purged: 1 });
    expect(await kept()).toEqual(['hier', 'il y a 364 jours']);
    expect(await organizationsKept()).toBe(2);
    expect(await total()).toBe(2);
    // The counts per day (migration 0017) follow, folded into one row per past day.
    const { rows } = await sql<{ n: number; rows: number }>`select coalesce(sum(n), 0)::int as n, count(*) filter (where backend <> 0 and day < current_date - 1)::int as rows from audit_day_counts`.execute(db());
    expect(rows[0]).toEqual({ n: 2, rows: 0 });
  });

  it('deletes in batches until none is left, and stops between batches when the server stops', async () => {
    for (let i = 0; i < 5; i++) await entry(`vieux ${i}`, 400 + i);
    await entry('récent', 1);
    const stopping = new AbortController();
    stopping.abort();
    expect(await auditRetentionJob({ db: db(), retentionDays: 365, batchSize: 2 }).run({ now: new Date(T0), signal: stopping.signal, log: silent })).toEqual({ purged: 0 });
    expect(await run(auditRetentionJob({ db: db(), retentionDays: 365, batchSize: 2 }), T0)).toEqual({ purged: 5 });
    expect(await kept()).toEqual(['récent']);
  });

  it('is a job of the runner, and purges as days pass on its clock', async () => {
    const clock = fakeClock(T0);
    const job = scheduledJobs({ db: db(), outboxRetentionDays: 30, auditRetentionDays: 365, expiredRowPurges: [] }).find((j) => j.name === 'audit.retention')!;
    const runner = createJobRunner({ db: db(), jobs: [job], log: silent, clock });
    await entry('il y a 364 jours', 364);
    expect(await runner.tick()).toMatchObject([{ job: 'audit.retention', outcome: 'succeeded', summary: { purged: 0 } }]);
    clock.advance(2 * DAY);
    expect(await runner.tick()).toMatchObject([{ job: 'audit.retention', outcome: 'succeeded', summary: { purged: 1 } }]);
    expect(await kept()).toEqual([]);
  });
});
