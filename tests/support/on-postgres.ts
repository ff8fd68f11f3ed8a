// Suites that need a PostgreSQL server (TEST_DATABASE_URL): two server processes on one database, lost
// sessions, the resilience tests. Without it the reason is printed and the suite does not run, except in CI
// (CI=true, as .ci/run sets it), where a missing database fails the run instead of passing it untested.
import { describe, it } from 'vitest';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export function describeOnPostgres(title: string, body: () => void): void {
  if (TEST_DATABASE_URL) {
    describe(title, body);
    return;
  }
  console.warn(`TEST_DATABASE_URL is not set: '${title}' is NOT run.`);
  describe(title, () => {
    it.runIf(process.env.CI === 'true')('has TEST_DATABASE_URL in CI', () => {
      throw new Error('TEST_DATABASE_URL is required in CI: these tests run on PostgreSQL');
    });
  });
}
