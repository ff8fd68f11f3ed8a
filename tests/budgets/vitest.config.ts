import path from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm run test:budgets`: the browser budgets, read from a production build, so they run after `npm run build`
// (the unit suite, which runs before the build, leaves this folder out).
export default defineConfig({
  root: path.resolve(import.meta.dirname, '../..'),
  test: {
    name: 'budgets',
    environment: 'node',
    include: ['tests/budgets/**/*.test.ts'],
  },
});
