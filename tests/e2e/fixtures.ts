import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo-Portail-2026';

/** Signs in through the real local provider, as a person would, and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/authentication/sign-in');
  await page.waitForURL(/\/oidc\/interaction\//);
  await page.getByLabel('Adresse email').fill(email);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

export async function signInToDashboard(page: Page, email: string): Promise<void> {
  await signIn(page, email);
  await page.waitForURL('**/dashboard');
  await expect(page.getByRole('heading', { name: 'Accueil', level: 1 })).toBeVisible();
}

export function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Navigation principale' });
}
