// The counts every node shares (migration 0007): the API rate limit's and the sign-in throttle's, one row per key
// and window in rate_limit_hits, counted by one atomic statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHitCounter, type HitCounter } from '../../../server/db/rate-limit-hits.ts';
import { migrate } from '../../../server/db/migrate.ts';
import type { DatabaseHandle } from '../../../server/db/database.ts';
import { backends, createTestDatabase, type TestDatabase } from './test-databases.ts';

const MINUTE = 60_000;

describe.each(backends)('the shared hit counter on $name', (backend) => {
  let testDb: TestDatabase;
  let now = Date.parse('2026-03-02T09:00:00Z');
  let counter: HitCounter;
  const rows = async () => (await testDb.handle.db.selectFrom('rate_limit_hits').select(['key', 'count']).orderBy('key').execute()).map((r) => `${r.key}=${r.count}`);

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    await migrate(testDb.handle);
    counter = createHitCounter(testDb.handle.db, { now: () => now });
  }, 60_000);
  afterAll(() => testDb?.dispose());

  it('counts each hit of a window and tells the milliseconds left of it, from the first hit', async () => {
    expect(await counter.hit('a', MINUTE)).toEqual({ count: 1, msLeft: MINUTE });
    now += 20_000;
    expect(await counter.hit('a', MINUTE)).toEqual({ count: 2, msLeft: 40_000 });
    expect(await counter.read('a')).toEqual({ count: 2, msLeft: 40_000 });
    expect(await counter.hit('b', MINUTE)).toEqual({ count: 1, msLeft: MINUTE });
  });

  it('starts a new window at the first hit after the end of the last one, and reads nothing of an ended one', async () => {
    await counter.hit('c', MINUTE);
    await counter.hit('c', MINUTE);
    now += MINUTE - 1;
    expect(await counter.read('c')).toEqual({ count: 2, msLeft: 1 });
    now += 1;
    expect(await counter.read('c')).toEqual({ count: 0, msLeft: 0 });
    expect(await counter.hit('c', MINUTE)).toEqual({ count: 1, msLeft: MINUTE });
    expect(await counter.read('never-hit')).toEqual({ count: 0, msLeft: 0 });
  });

  it('forgets a key when cleared, and only that key', async () => {
    await counter.hit('d', MINUTE);
    await counter.hit('e', MINUTE);
    await counter.clear('d');
    expect(await counter.read('d')).toEqual({ count: 0, msLeft: 0 });
    expect((await counter.read('e')).count).toBe(1);
  });

  it('counts simultaneous hits once each, from another handle too (PostgreSQL: two pools, as two nodes)', async () => {
    const other: DatabaseHandle = backend.name === 'postgres' ? await testDb.openAnother() : testDb.handle;
    const second = createHitCounter(other.db, { now: () => now });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? second : counter).hit('f', MINUTE)));
    expect(answers.map((a) => a.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect((await counter.read('f')).count).toBe(40);
  });

  it('deletes the rows of ended windows, and those only', async () => {
    await testDb.handle.db.deleteFrom('rate_limit_hits').execute();
    await counter.hit('old', MINUTE);
    now += 30_000;
    await counter.hit('young', MINUTE);
    now += 30_000;
    expect(await counter.purgeExpired()).toBe(1);
    expect(await rows()).toEqual(['young=1']);
    expect(await counter.purgeExpired()).toBe(0);
  });
});
