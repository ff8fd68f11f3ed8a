import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    // Vitest's default on a 2-core machine is one worker; most test time is spent waiting on PGlite,
    // PostgreSQL and the local server, so two workers bring the suite from about 8 to under 6 minutes.
    maxWorkers: 2,
    // Browser tests are Playwright's (tests/e2e, *.spec.ts).
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/**/*.test.ts'],
          // tests/budgets reads the production build: `npm run test:budgets`, after `npm run build`;
          // tests/resilience loads the machine: `npm run test:resilience`, after this suite.
          exclude: ['tests/e2e/**', 'tests/budgets/**', 'tests/resilience/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // The server tests import the same app, database and provider modules file after file: without a fresh
          // module graph per file the suite spends about a fifth less time (nothing here mocks modules or
          // writes process.env; each test builds its own app and database).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['tests/**/*.test.tsx'],
          testTimeout: 15_000,
        },
      },
    ],
  },
});
