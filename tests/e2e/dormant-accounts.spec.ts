// Issue 23 in the browser: the users list's 'État du compte' filter keeps the dormant accounts ('Comptes dormants'),
// in the URL, each row saying since when the person is inactive; an employer administrator's within their reach.
// The demo holds accounts created long ago and never signed in since (docs/demo-data.md): they are dormant.
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { openDashboardAs, sidebar } from './fixtures';

const SUMMARY = /^Affichage \d+-\d+ sur (\d+) utilisateurs$/;

async function totalShown(page: Page): Promise<number> {
  const summary = page.getByText(SUMMARY);
  await expect(summary).toBeVisible();
  return Number(SUMMARY.exec((await summary.textContent()) ?? '')![1]);
}

/** Opens the users list, reads its total, then keeps the dormant accounts with the filter: answers both totals. */
async function filterDormant(page: Page): Promise<{ all: number; dormant: number }> {
  await sidebar(page).getByRole('link', { name: 'Gestion des utilisateurs' }).click();
  await expect(page.getByRole('table')).toBeVisible();
  const all = await totalShown(page);
  const state = page.getByLabel('État du compte');
  await expect(state).toHaveValue('');
  await expect(state.getByRole('option')).toHaveText(['Tous', 'Comptes dormants', 'Invitation non acceptée', "Lien d'activation expiré"]);
  await state.selectOption({ label: 'Comptes dormants' });
  await expect(page).toHaveURL(/accountState=dormant/);
  await expect(page.getByRole('table')).not.toHaveAttribute('aria-busy', 'true');
  const dormant = await totalShown(page);
  // Every row of the page says since when the person is inactive.
  const rows = page.getByRole('row').filter({ has: page.getByRole('cell') });
  const count = await rows.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) await expect(rows.nth(i)).toContainText(/Inactif depuis le \d{2}\/\d{2}\/\d{4}/);
  return { all, dormant };
}

test("the back office keeps the dormant accounts with 'Comptes dormants', in the URL, each row 'Inactif depuis le …'; an employer administrator only theirs", async ({ page, browser }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const backOffice = await filterDormant(page);
  expect(backOffice.dormant).toBeGreaterThan(0);
  expect(backOffice.dormant).toBeLessThan(backOffice.all);
  await expectNoAxeViolations(page, "'Comptes dormants'");
  // The URL holds the filter: a reload keeps it; 'Tous' takes it away.
  await page.reload();
  await expect(page.getByLabel('État du compte')).toHaveValue('dormant');
  expect(await totalShown(page)).toBe(backOffice.dormant);
  await page.getByLabel('État du compte').selectOption({ label: 'Tous' });
  await expect(page).not.toHaveURL(/accountState=/);
  expect(await totalShown(page)).toBe(backOffice.all);

  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const employer = await context.newPage();
  await openDashboardAs(employer, 'admin.clinique@portail.test');
  const clinic = await filterDormant(employer);
  expect(clinic.dormant).toBeLessThan(backOffice.dormant);
  await context.close();
});
