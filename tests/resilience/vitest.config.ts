import path from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm run test:resilience`: tests that load the machine (a minute of load, PostgreSQL outages, SIGTERM under
// load) against the real server in its own process. They run after the unit suite, one file at a time, so that
// neither another test file nor another of them skews their measures (the unit suite leaves this folder out).
export default defineConfig({
  root: path.resolve(import.meta.dirname, '../..'),
  test: {
    name: 'resilience',
    environment: 'node',
    include: ['tests/resilience/**/*.test.ts'],
    fileParallelism: false,
    // A start of the server, a minute of load and the checks after it.
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
});
