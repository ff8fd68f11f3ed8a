// For the describe block that calls it: a migrated database of its own (made before the block's tests, disposed
// after them), these tables and the jobs' rows emptied before each test. Read it through db() inside the tests.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { migrate } from '../../../server/db/migrate.ts';
import type { Database } from '../../../server/db/schema.ts';
import { createTestDatabase, type Backend, type TestDatabase } from '../db/test-databases.ts';

/** A job's log that says nothing. */
export const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
export const DAY = 24 * 3600_000;

/** For the describe block that calls it: a migrated database of its own, made before its tests and disposed after them. */
export function migratedTestDatabase(backend: Backend): () => TestDatabase {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    await migrate(testDb.handle);
  }, 60_000);
  afterAll(async () => {
    await testDb?.dispose();
  });
  return () => testDb;
}

export function migratedDatabase(backend: Backend, emptied: readonly (keyof Database)[]) {
  const testDb = migratedTestDatabase(backend);
  beforeEach(async () => {
    for (const table of [...emptied, 'scheduled_jobs' as const]) await testDb().handle.db.deleteFrom(table).execute();
  });
  return () => testDb().handle.db;
}
