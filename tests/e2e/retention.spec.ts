// Issue 23: 'Durées de conservation' (the back office's, from the settings the server runs with) and the
// accessibility statement, reachable by anyone from every footer.
import { expect, test } from '@playwright/test';
import { readConfig } from '../../server/config.ts';
import { retentionItems } from '../../server/features/retention/retention.model.ts';
import { retentionRows } from '../../src/features/retention/retention-rows.ts';
import { openDashboardAs, sidebar } from './fixtures';

/** The server of this run reads the same environment as this process (playwright.config.ts, webServer). */
const expectedRows = () => retentionRows(retentionItems(readConfig(process.env)));

test("the back office follows 'Durées de conservation' from the sidebar and reads the server's settings in a table", async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  await sidebar(page).getByRole('link', { name: 'Durées de conservation' }).click();
  await page.waitForURL('**/conservation');
  await expect(page.getByRole('heading', { name: 'Durées de conservation', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Durées de conservation des données du portail' });
  const rows = table.locator('tbody tr');
  const expected = expectedRows();
  await expect(rows).toHaveCount(expected.length);
  for (const [index, row] of expected.entries()) {
    await expect(rows.nth(index).locator('th, td')).toHaveText([row.what, row.duration, row.setting ?? row.settingText, row.end]);
  }
  // The defaults this run uses, read from the page as a person would.
  await expect(rows.filter({ hasText: 'AUDIT_RETENTION_DAYS' })).toContainText('365 jours');
  await expect(rows.filter({ hasText: 'Journaux techniques du serveur' })).toContainText('Non conservés par le portail');
});

test("an employer administrator has no 'Durées de conservation' entry and is sent to the dashboard from /conservation", async ({ page }) => {
  await openDashboardAs(page, 'admin.clinique@portail.test');
  await expect(sidebar(page).getByRole('link', { name: 'Gestion des utilisateurs' })).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: 'Durées de conservation' })).toHaveCount(0);
  let asked = false;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/v2/retention') asked = true;
  });
  await page.goto('/conservation');
  await page.waitForURL('**/dashboard');
  await expect(page.getByRole('heading', { name: 'Accueil', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Durées de conservation des données du portail' })).toHaveCount(0);
  expect(asked).toBe(false);
});

test("signed out, the landing page's footer leads to the accessibility statement: non conforme, the tests it rests on, the contact and the remedies", async ({ page }) => {
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Accessibilité : non conforme' }).click();
  await page.waitForURL('**/accessibilite');
  await expect(page.getByRole('heading', { name: "Déclaration d'accessibilité", level: 1 })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'État de conformité', level: 2 })).toBeVisible();
  await expect(main).toContainText("est non conforme avec le RGAA 4.1 (référentiel général d'amélioration de l'accessibilité)");
  await expect(main).toContainText('axe-core');
  const config = readConfig(process.env);
  await expect(main.getByRole('link', { name: config.accessibility.contactEmail })).toHaveAttribute('href', `mailto:${config.accessibility.contactEmail}`);
  await expect(main.getByRole('heading', { name: 'Voies de recours', level: 2 })).toBeVisible();
  await expect(main.getByRole('link', { name: /Écrire un message au Défenseur des droits/ })).toHaveAttribute('href', 'https://formulaire.defenseurdesdroits.fr/');
  await expect(main).toContainText('Cette déclaration a été établie le 27 novembre 2026.');
  await main.getByRole('link', { name: "Retour à l'accueil" }).click();
  await expect(page.getByRole('heading', { name: 'Portail Habilitations', level: 1 })).toBeVisible();
});

test("the signed-in footer says 'Accessibilité : non conforme' and leads to the statement", async ({ page }) => {
  await openDashboardAs(page, 'rh.clinique@portail.test');
  const mention = page.getByRole('contentinfo').getByRole('link', { name: 'Accessibilité : non conforme' });
  await expect(mention).toHaveAttribute('href', '/accessibilite');
  await mention.click();
  await expect(page.getByRole('heading', { name: "Déclaration d'accessibilité", level: 1 })).toBeVisible();
});

test.describe('on a 320 px wide phone', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test('neither the statement nor the retention table makes the page scroll sideways: the table scrolls in its own frame', async ({ page }) => {
    const pageScrollsSideways = () => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    await page.goto('/accessibilite');
    await expect(page.getByRole('heading', { name: "Déclaration d'accessibilité", level: 1 })).toBeVisible();
    expect(await pageScrollsSideways()).toBe(false);

    await openDashboardAs(page, 'backoffice@portail.test');
    await page.goto('/conservation');
    const frame = page.getByRole('region', { name: 'Tableau des durées de conservation, défilant horizontalement' });
    await expect(frame.getByRole('table')).toBeVisible();
    expect(await pageScrollsSideways()).toBe(false);
    await expect(frame).toHaveAttribute('tabindex', '0');
    expect(await frame.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  });
});
