import { defineConfig } from '@playwright/test';
import { chromiumPath, CHROMIUM_ARGS } from './tests/e2e/chromium';

const PORT = Number(process.env.E2E_PORT ?? 8444);
export const E2E_ORIGIN = `https://localhost:${PORT}`;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  globalSetup: './tests/e2e/global-setup.ts',
  // Two runs side by side (E2E_PORT, E2E_DATA_DIR, WEB_ROOT) also need their own traces and screenshots.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  use: {
    baseURL: E2E_ORIGIN,
    ignoreHTTPSErrors: true,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    // Each demo persona signs in once, for real, against this run's server; its browser state is saved in outputDir.
    { name: 'personas', testMatch: 'personas.setup.ts' },
    // openDashboardAs (fixtures.ts) starts from a persona's saved state; the tests about signing in sign in themselves.
    // (Those could run beside the setup in a project of their own, but each project switch starts new workers, which
    // cost here about what the overlap saved.)
    { name: 'chromium', testMatch: '**/*.spec.ts', dependencies: ['personas'] },
  ],
  webServer: {
    // A fresh data folder each run: the demo seed, a new database, the same certificate logic as `npm start`.
    command: 'node tests/e2e/start-server.ts',
    url: `${E2E_ORIGIN}/healthz`,
    ignoreHTTPSErrors: true,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // E2E_DATA_DIR and WEB_ROOT let two runs (e.g. two work trees' builds) use their own data and SPA.
    env: { PORT: String(PORT), DATA_DIR: process.env.E2E_DATA_DIR ?? '.data/e2e', WEB_ROOT: process.env.WEB_ROOT ?? 'dist', LOG_LEVEL: 'warn' },
  },
});
