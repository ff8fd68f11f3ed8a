import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { bearer, createUser, openDashboardAs, sidebar } from './fixtures';

/** Full-page screenshots of the current screen at 1280 and 375 px, into this test's output folder. */
async function shoot(page: Page, name: string, outputPath: (name: string) => string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("the back office reads what happened as sentences, filters the journal, and finds a person's history on their profile (issue 21)", async ({ page }, testInfo) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const lastName = `Journal${Date.now().toString(36)}`;
  const user = await createUser(page, 'Clinique des Tilleuls', { lastName });
  const deactivated = await page.request.post(`/api/v2/users/${user.id}/deactivate`, { headers: { Authorization: `Bearer ${await bearer(page)}` } });
  expect(deactivated.status()).toBe(200);

  await sidebar(page).getByRole('link', { name: 'Journal des modifications' }).click();
  await expect(page).toHaveURL(/\/journal$/);
  await expect(page.getByRole('heading', { name: 'Journal des modifications', level: 1 })).toBeVisible();
  const sentence = `Béatrice Marchand a désactivé ${user.name}.`;
  await expect(page.getByText(sentence)).toBeVisible();
  await expectNoAxeViolations(page, 'the journal');
  await shoot(page, 'journal', (name) => testInfo.outputPath(name));

  // Filters: the kind of change (keyboard), then the free search, both kept in the URL.
  await page.getByLabel('Action').focus();
  await page.getByLabel('Action').selectOption({ label: 'Désactivations' });
  await expect(page).toHaveURL(/action=deactivation/);
  await page.getByPlaceholder('Rechercher par nom ou email...').fill(lastName);
  await expect(page).toHaveURL(new RegExp(`search=${lastName}`));
  await expect(page.getByText(sentence)).toBeVisible();
  await expect(page.getByText('Affichage 1-1 sur 1 modifications')).toBeVisible();
  await expect(page.getByText(`Béatrice Marchand a créé ${user.name}`, { exact: false })).toHaveCount(0);

  // The person's history, from the entry's link to their profile.
  await page.getByRole('link', { name: `Voir le profil de ${user.name}` }).click();
  await expect(page.getByRole('heading', { name: 'Profil utilisateur', level: 1 })).toBeVisible();
  const history = page.getByRole('region', { name: 'Historique' });
  await expect(history.getByText(sentence)).toBeVisible();
  await expect(history.getByText(new RegExp(`^Béatrice Marchand a créé ${user.name}`))).toBeVisible();
  await expectNoAxeViolations(page, 'a profile with its history');
  await shoot(page, 'profile-history', (name) => testInfo.outputPath(name));
});

test("an employer administrator reads only their own scope's entries (issue 21)", async ({ page, browser, baseURL }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const lastName = `Perimetre${Date.now().toString(36)}`;
  const user = await createUser(page, 'Clinique des Tilleuls', { lastName });
  const sentence = new RegExp(`^Béatrice Marchand a créé ${user.name}`);

  const clinic = await browser.newContext({ baseURL, ignoreHTTPSErrors: true, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const admin = await clinic.newPage();
  await openDashboardAs(admin, 'admin.clinique@portail.test');
  await admin.goto(`/journal?search=${lastName}`);
  await expect(admin.getByText(sentence)).toBeVisible();
  await clinic.close();

  const ehpad = await browser.newContext({ baseURL, ignoreHTTPSErrors: true, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const other = await ehpad.newPage();
  await openDashboardAs(other, 'admin.ehpad@portail.test');
  await other.goto(`/journal?search=${lastName}`);
  await expect(other.getByText('Aucune modification trouvée.')).toBeVisible();
  await ehpad.close();
});
