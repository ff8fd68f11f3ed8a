// The setup project (playwright.config.ts): each demo persona signs in once, for real, through the local provider
// of the server the tests use, and the browser state it ends with (the portail.accessToken cookie, MSAL's cache in
// localStorage and its encryption-key cookie, the provider's session cookies, the cached profile) is saved for
// openDashboardAs (fixtures.ts). The tests about signing in itself do not use it: they sign in on their own.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PERSONAS, personaStatePath, signInToDashboard } from './fixtures';

test('every demo persona signs in once through the local provider, and its signed-in state is saved', async ({ browser, baseURL }) => {
  fs.mkdirSync(path.dirname(personaStatePath(PERSONAS[0])), { recursive: true });
  await Promise.all(
    PERSONAS.map(async (email) => {
      // A context of its own for each, so that each gets its own provider session.
      const context = await browser.newContext({ baseURL, ignoreHTTPSErrors: true, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
      const page = await context.newPage();
      await signInToDashboard(page, email);
      await expect(page.getByTestId('sidebar-email')).toHaveText(email);
      const state = await context.storageState({ path: personaStatePath(email) });
      expect(state.cookies.map((cookie) => cookie.name)).toContain('portail.accessToken');
      await context.close();
    }),
  );
});
