import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
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
