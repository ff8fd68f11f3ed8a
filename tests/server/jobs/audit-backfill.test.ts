// The journal's backfill (server/jobs/audit-backfill.ts, migration 0014): entries written before the migration get
// their subject_search_text in batches of short transactions, oldest first, from where the last run stopped; an
// entry is taken once settled; a run stops when the server stops; once through, nothing is left to do.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../server/db/migrate.ts';
import { writeAudit } from '../../../server/features/audit/audit.repository.ts';
import { auditBackfillJob } from '../../../server/jobs/audit-backfill.ts';
import { backends, createTestDatabase, type TestDatabase } from '../db/test-databases.ts';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const LATER = () => new Date(Date.now() + 3600_000);

describe.each(backends)('the journal backfill on $name', (backend) => {
  let testDb: TestDatabase;
  const db = () => testDb.handle.db;
  const run = async (job: ReturnType<typeof auditBackfillJob>, now = LATER(), signal = new AbortController().signal) => (await job.run({ now, signal, log: silent })) as { filled: number; remaining: number };
  const unfilled = async () => Number((await sql<{ n: number }>`select count(*)::int as n from audit_log where subject_search_text is null`.execute(db())).rows[0]!.n);
  const doneThrough = async () => Number((await sql<{ n: number }>`select done_through as n from audit_backfills where name = 'subject_search_text'`.execute(db())).rows[0]!.n);

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    await migrate(testDb.handle);
    await db().deleteFrom('audit_log').execute();
    const user = await db().insertInto('users').values({ email: 'zoe.bonnet@exemple.fr', first_name: 'Zoé', last_name: 'Bonnet', user_type: 'ORGANIZATION' }).returning('id').executeTakeFirstOrThrow();
    for (let i = 0; i < 7; i++) {
      await writeAudit(db(), { actor: { userId: null, email: 'ops@exemple.fr' }, action: 'user.update', entityType: 'user', entityId: user.id, subject: { name: 'Zoé Bonnet', emails: ['zoe.bonnet@exemple.fr'] }, changes: {} });
    }
    // As written before migration 0014.
    await sql`update audit_log set subject_search_text = null`.execute(db());
    await sql`update audit_backfills set done_through = 0`.execute(db());
  }, 60_000);
  afterAll(async () => {
    await testDb?.dispose();
  });

  it('takes only the entries settled for ten minutes', async () => {
    expect(await run(auditBackfillJob({ db: db() }), new Date())).toEqual({ filled: 0, remaining: 0 });
    expect(await unfilled()).toBe(7);
  });

  it('stops between batches when the server stops, then goes on from where it stopped, oldest first', async () => {
    const stopping = new AbortController();
    stopping.abort();
    expect(await run(auditBackfillJob({ db: db(), batchSize: 3 }), LATER(), stopping.signal)).toMatchObject({ filled: 0 });
    const first = await run(auditBackfillJob({ db: db(), batchSize: 3, runMs: 0 }));
    expect(first.filled).toBeGreaterThan(0);
    expect(first.remaining).toBeGreaterThan(0);
    const { rows } = await sql<{ id: number; filled: boolean }>`select id, subject_search_text is not null as filled from audit_log order by id`.execute(db());
    expect(rows.map((r) => r.filled)).toEqual([...rows.map((r) => r.id <= first.filled + rows[0]!.id - 1)]);
    expect(await run(auditBackfillJob({ db: db(), batchSize: 3 }))).toMatchObject({ remaining: 0 });
    expect(await unfilled()).toBe(0);
  });

  it("fills in the person's name and e-mails without accents, and once through has nothing left to do", async () => {
    const { rows } = await sql<{ text: string }>`select distinct subject_search_text as text from audit_log`.execute(db());
    expect(rows).toEqual([{ text: 'zoe bonnet zoe.bonnet@exemple.fr' }]);
    const mark = await doneThrough();
    expect(await run(auditBackfillJob({ db: db() }))).toEqual({ filled: 0, remaining: 0 });
    expect(await doneThrough()).toBe(mark);
  });
});
