import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { workflowCatalog } from '../../src/workflows/catalog';
import { openDashboardAs } from './fixtures';

/** What the page's Content-Security-Policy blocked, and uncaught errors: drawing the charts must cause neither. */
function watchForViolations(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

test('back office opens /workflows from the dashboard and sees every machine drawn as SVG, with its tables, under the CSP', async ({ page }) => {
  const problems = watchForViolations(page);
  await openDashboardAs(page, 'backoffice@portail.test');
  await page.getByRole('link', { name: 'Workflows : les diagrammes des machines à états' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Workflows' })).toBeVisible();
  for (const entry of workflowCatalog) {
    const section = page.getByRole('region', { name: entry.title });
    await expect(section.getByRole('img', { name: `Diagramme d'états : ${entry.title}` }).locator('svg')).toBeVisible();
    await expect(section.getByRole('table', { name: `États : ${entry.title}` })).toBeVisible();
    await expect(section.getByRole('button', { name: `Télécharger le SVG : ${entry.title}` })).toBeEnabled();
  }
  // The chart names the code's states; the table gives them in French.
  const session = page.getByRole('region', { name: 'Session et connexion' });
  await expect(session.locator('svg').getByText('signedIn', { exact: true })).toBeVisible();
  await expect(session.getByRole('row', { name: /Connecté signedIn/ })).toBeVisible();
  expect(problems).toEqual([]);
});

test("'Télécharger le SVG' saves the chart as <machine id>.svg", async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  await page.goto('/workflows');
  const button = page.getByRole('button', { name: 'Télécharger le SVG : Garde des routes' });
  await expect(button).toBeEnabled();
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toBe('guard.svg');
  const svg = fs.readFileSync((await download.path())!, 'utf8');
  expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  expect(svg).toContain('redirectingToSignIn');
});

test('an employer administrator has no workflows link and is sent back to /dashboard from /workflows', async ({ page }) => {
  await openDashboardAs(page, 'admin.clinique@portail.test');
  await expect(page.getByRole('link', { name: /Workflows/ })).toHaveCount(0);
  await page.goto('/workflows');
  await page.waitForURL('**/dashboard');
  await expect(page.getByRole('heading', { name: 'Accueil', level: 1 })).toBeVisible();
});

const personas = [
  { email: 'backoffice@portail.test', type: 'BACKOFFICE', users: 'Succès', organizations: 'Succès' },
  { email: 'lecteur@portail.test', type: 'BACKOFFICE', users: 'Succès', organizations: 'Succès' },
  { email: 'admin.clinique@portail.test', type: 'ORGANIZATION', users: 'Succès', organizations: 'Succès' },
  { email: 'rh.clinique@portail.test', type: 'ORGANIZATION', users: 'Ignoré', organizations: 'Ignoré' },
  { email: 'admin.ehpad@portail.test', type: 'ORGANIZATION', users: 'Succès', organizations: 'Succès' },
];

for (const persona of personas) {
  test(`/test-v2-api shows ${persona.email} and runs the three checks`, async ({ page }) => {
    await openDashboardAs(page, persona.email);
    await page.goto('/test-v2-api');
    await expect(page.getByRole('heading', { level: 1, name: "Test de l'API v2" })).toBeVisible();
    const current = page.getByRole('region', { name: 'Utilisateur courant' });
    await expect(current.getByText(persona.email, { exact: true })).toBeVisible();
    await expect(current.getByText(persona.type, { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Organisations' })).toHaveCount(persona.type === 'ORGANIZATION' ? 1 : 0);
    await page.getByRole('button', { name: 'Lancer les vérifications' }).click();
    const me = page.getByRole('listitem', { name: 'GET /api/v2/users/me' });
    await expect(me).toContainText('Succès');
    await expect(me).toContainText(`Connecté en tant que ${persona.email}`);
    await expect(page.getByRole('listitem', { name: 'GET /api/v2/users', exact: true })).toContainText(persona.users);
    await expect(page.getByRole('listitem', { name: 'GET /api/v2/organizations?type=SIREN' })).toContainText(persona.organizations);
    if (persona.users === 'Ignoré') await expect(page.getByRole('listitem', { name: 'GET /api/v2/users', exact: true })).toContainText('No USER_LIST permission');
  });
}

test("/test-v2-api's refresh-user button reloads the profile from the API", async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  await page.goto('/test-v2-api');
  const reload = page.waitForResponse((response) => response.url().endsWith('/api/v2/users/me') && response.status() === 200);
  await page.getByRole('button', { name: "Rafraîchir l'utilisateur" }).click();
  await reload;
  await expect(page.getByRole('button', { name: "Rafraîchir l'utilisateur" })).toBeEnabled();
  await expect(page.getByRole('region', { name: 'Utilisateur courant' }).getByText('backoffice@portail.test', { exact: true })).toBeVisible();
});
