// The benchmark's journal (bench/journal-sql.ts): loaded with the triggers off, it leaves every counter the server
// reads as the entries are (the total, the days' and the hours' counts), on both backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalSteps } from '../../bench/journal-sql.ts';
import { REFERENCE_DATE } from '../../server/seed/seed-data.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from '../server/db/test-databases.ts';

describe.each(backends)('the benchmark journal on $name', (backend) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createSeededTestDatabase(backend);
    // One connection for every step: the load's session settings and temporary tables hold across them.
    await testDb.handle.withRawTransaction(async (tx) => {
      for (const step of journalSteps(3_000, REFERENCE_DATE).filter((s) => !s.sql.startsWith('vacuum'))) await tx.exec(step.sql);
    });
  }, 120_000);
  afterAll(async () => {
    await testDb?.dispose();
  });

  it('counts its entries in total, per day and per hour as they are', async () => {
    const one = (text: string) => testDb.handle.withRawTransaction((tx) => tx.query<Record<string, unknown>>(text));
    expect(await one('select sum(n)::int as n from audit_counts')).toEqual([{ n: 3_000 }]);
    const days = `select to_char(day, 'YYYY-MM-DD') as k, sum(n)::int as n from audit_day_counts group by 1 having sum(n) <> 0 order by 1`;
    const actualDays = `select to_char((at at time zone 'UTC')::date, 'YYYY-MM-DD') as k, count(*)::int as n from audit_log group by 1 order by 1`;
    expect(await one(days)).toEqual(await one(actualDays));
    const hours = `select to_char(hour, 'YYYY-MM-DD HH24') as k, sum(n)::int as n from audit_hour_counts group by 1 having sum(n) <> 0 order by 1`;
    const actualHours = `select to_char(at at time zone 'UTC', 'YYYY-MM-DD HH24') as k, count(*)::int as n from audit_log group by 1 order by 1`;
    expect(await one(hours)).toEqual(await one(actualHours));
    expect((await one(actualHours)).length).toBeGreaterThan(1_000);
  });
});
