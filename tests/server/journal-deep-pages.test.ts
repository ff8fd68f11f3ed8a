// A deep page of the whole journal seeks its day, then its hour (migrations 0017, 0037: the entries counted per day
// and per hour by triggers), and skips only within it: the same pages as reading the time index from the start,
// across days, hours, ties and midnights included, while entries are written, re-dated and purged.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.ts';
import type { Database } from '../../server/db/schema.ts';
import { PREPARE_ANYWAY } from '../../server/db/database.ts';
import { idsSeekingTheHour, listJournalPage, type JournalWhere } from '../../server/features/audit/audit-list.repository.ts';
import { purgeJournal } from '../../server/features/audit/audit-retention.service.ts';
import { backends, createTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { keptPlan } from './support/plans.ts';

const WHOLE: JournalWhere = { scope: null };
const DAY = 86_400_000;

describe.each(backends)('deep pages of the journal on $name', (backend) => {
  let testDb: TestDatabase;
  let db: Kysely<Database>;

  /** Entries at these instants (several at the same one: ties by id). */
  const write = (times: readonly Date[]) =>
    sql`insert into audit_log (actor_email, action, entity_type, entity_id, changes, at)
      select 'ops@exemple.fr', 'user.update', 'user', 'x', '{}'::jsonb, t from unnest(${times.map((t) => t.toISOString())}::timestamptz[]) as t`.execute(db);
  const dayCounts = async () =>
    (await sql<{ day: string; n: number }>`select to_char(day, 'YYYY-MM-DD') as day, sum(n)::int as n from audit_day_counts group by day having sum(n) <> 0 order by day`.execute(db)).rows;
  const hourCounts = async () =>
    (await sql<{ hour: string; n: number }>`select to_char(hour, 'YYYY-MM-DD HH24') as hour, sum(n)::int as n from audit_hour_counts group by hour having sum(n) <> 0 order by hour`.execute(db)).rows;
  const actualHours = async () =>
    (await sql<{ hour: string; n: number }>`select to_char(at at time zone 'UTC', 'YYYY-MM-DD HH24') as hour, count(*)::int as n from audit_log group by 1 order by 1`.execute(db)).rows;
  const actualCounts = async () =>
    (await sql<{ day: string; n: number }>`select to_char((at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, count(*)::int as n from audit_log group by 1 order by 1`.execute(db)).rows;
  const total = async () => Number((await sql<{ n: number }>`select count(*) as n from audit_log`.execute(db)).rows[0]!.n);

  /** Every page of `size`, sought by day and read from the start: the same ids. */
  async function expectSamePages(size: number) {
    const pages = Math.ceil((await total()) / size);
    for (let page = 1; page <= pages + 1; page++) {
      const sought = await listJournalPage(db, WHOLE, { page, pageSize: size }, { seekDayFrom: 0 });
      const walked = await listJournalPage(db, WHOLE, { page, pageSize: size }, { seekDayFrom: Number.POSITIVE_INFINITY });
      expect(sought.map((r) => r.id), `page ${page} of ${size}`).toEqual(walked.map((r) => r.id));
    }
  }

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    await migrate(testDb.handle);
    db = testDb.handle.db;
    await db.deleteFrom('audit_log').execute();
    const midnight = Date.UTC(2026, 10, 20);
    const times: Date[] = [];
    for (let d = 0; d < 5; d++) {
      for (let i = 0; i < 7 + d; i++) times.push(new Date(midnight + d * DAY + i * 3_600_000));
      for (let m = 1; m <= 2 + d; m++) times.push(new Date(midnight + d * DAY + 5 * 3_600_000 + m * 60_000)); // several in one hour
      times.push(new Date(midnight + d * DAY + DAY - 1), new Date(midnight + d * DAY + DAY - 1)); // a tie just before midnight
    }
    await write(times);
  }, 120_000);
  afterAll(async () => {
    await testDb?.dispose();
  });

  it('counts the entries of each day and of each hour as they are', async () => {
    expect(await dayCounts()).toEqual(await actualCounts());
    expect((await dayCounts()).length).toBe(5);
    expect(await hourCounts()).toEqual(await actualHours());
    expect((await hourCounts()).length).toBe(5 * 7 + 10 + 5);
  });

  it('reads the same pages as from the start, each size, across days and ties', async () => {
    for (const size of [1, 3, 10, 25]) await expectSamePages(size);
  });

  it('keeps the counts and the pages right when entries are written, re-dated and purged', async () => {
    await write([new Date(Date.UTC(2026, 10, 22, 12)), new Date(Date.UTC(2026, 10, 26, 0))]);
    await sql`update audit_log set at = at - interval '2 days' where id in (select id from audit_log order by id limit 4)`.execute(db);
    await purgeJournal(db, new Date(Date.UTC(2026, 10, 21)));
    expect(await dayCounts()).toEqual(await actualCounts());
    expect(await hourCounts()).toEqual(await actualHours());
    await expectSamePages(4);
  });

  it('pages several actions, merged from each action newest first, as the whole journal sorted would, ties and a period included', async () => {
    const actions = ['user.deactivate', 'user.reactivate', 'user.delete'] as const;
    // Each action's entries interleaved, some at the same instant (ties broken by id), others of user.update between.
    await sql`insert into audit_log (actor_email, action, entity_type, entity_id, changes, at)
      select 'ops@exemple.fr', (array['user.deactivate', 'user.reactivate', 'user.delete', 'user.update'])[1 + i % 4], 'user', 'x', '{}'::jsonb,
        timestamptz '2026-11-23 08:00Z' + ((i / 3) * interval '7 minutes')
      from generate_series(0, 60) as i`.execute(db);
    for (const where of [{ scope: null, actions: [...actions] }, { scope: null, actions: [...actions.slice(0, 2)], since: new Date(Date.UTC(2026, 10, 23, 9)) }] satisfies JournalWhere[]) {
      const { rows } = await sql<{ id: number }>`select id from audit_log where action = any(${where.actions}) and (${where.since ?? null}::timestamptz is null or at >= ${where.since ?? null})
        order by at desc, id desc`.execute(db);
      const expected = rows.map((r) => Number(r.id));
      expect(expected.length).toBeGreaterThan(15);
      for (const size of [1, 4, 10]) {
        const pages: number[] = [];
        for (let page = 1; page <= Math.ceil(expected.length / size) + 1; page++) pages.push(...(await listJournalPage(db, where, { page, pageSize: size })).map((r) => Number(r.id)));
        expect(pages, `pages of ${size}`).toEqual(expected);
      }
    }
  });

  it("is prepared once, with a plan that reads only the page's entries whatever the page", async () => {
    const { sql: text, parameters } = db.selectFrom('audit_log').select('id').where('id', 'in', sql<number>`(${idsSeekingTheHour(12, 1)})`).compile();
    expect(text).toContain(PREPARE_ANYWAY);
    const plan = await keptPlan(testDb.handle, { sql: text, parameters });
    // The generic plan expects the page's one entry, not a tenth of the journal to join to every entry.
    expect(plan.split('\n')[0]).toMatch(/rows=1 /);
  });

  it('folds the counts of past days and hours into one row each at start-up, totals unchanged', async () => {
    const before = [await dayCounts(), await hourCounts()];
    const { rows: spread } = await sql<{ n: number }>`select count(*)::int as n from audit_hour_counts where backend <> 0`.execute(db);
    expect(spread[0]!.n).toBeGreaterThan(0);
    await sql`select compact_list_totals()`.execute(db);
    expect([await dayCounts(), await hourCounts()]).toEqual(before);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from audit_day_counts where backend <> 0 and day < current_date - 1`.execute(db);
    expect(rows[0]!.n).toBe(0);
    const { rows: hours } = await sql<{ n: number }>`select count(*)::int as n from audit_hour_counts where backend <> 0 and hour < (now() at time zone 'UTC') - interval '1 day'`.execute(db);
    expect(hours[0]!.n).toBe(0);
    await expectSamePages(7);
  });
});
