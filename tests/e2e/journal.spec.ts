import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { bearer, createUser, openDashboardAs, sidebar } from './fixtures';

/** A name part no other test uses, in letters only (names take letters, spaces, hyphens and apostrophes). */
const letters = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

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
  const lastName = `Journal${letters()}`;
  const user = await createUser(page, 'Clinique des Tilleuls', { lastName });
  const deactivated = await page.request.post(`/api/v2/users/${user.id}/deactivate`, { headers: { Authorization: `Bearer ${await bearer(page)}` } });
  expect(deactivated.status()).toBe(200);

  await sidebar(page).getByRole('link', { name: 'Journal des modifications' }).click();
  await expect(page).toHaveURL(/\/journal(\?|$)/);
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
  await expect(page.getByText(`Béatrice Marchand a créé l'utilisateur ${user.name}.`)).toHaveCount(0);

  // The filtered journal as a CSV file: one line, the entry's sentence.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exporter (CSV)' }).click();
  const file = await download;
  await expect(page.getByRole('status').filter({ hasText: 'Export terminé : 1 ligne.' })).toBeVisible();
  expect(file.suggestedFilename()).toMatch(/^journal-\d{4}-\d{2}-\d{2}\.csv$/);
  const records = parse(fs.readFileSync(await file.path(), 'utf8'), { bom: true, delimiter: ';', record_delimiter: '\r\n' }) as string[][];
  expect(records[0]).toEqual(['Date', 'Auteur', 'Action', 'Concerné', 'Organisation', 'Détail', 'Modifications']);
  expect(records.slice(1).map((r) => [r[2], r[5]])).toEqual([['Désactivation', sentence]]);

  // The person's history, from the entry's link to their profile.
  await page.getByRole('link', { name: `Voir le profil de ${user.name}` }).click();
  await expect(page.getByRole('heading', { name: 'Profil utilisateur', level: 1 })).toBeVisible();
  const history = page.getByRole('region', { name: 'Historique' });
  await expect(history.getByText(sentence)).toBeVisible();
  await expect(history.getByText(new RegExp(`^Béatrice Marchand a créé l'utilisateur ${user.name}`))).toBeVisible();
  await expectNoAxeViolations(page, 'a profile with its history');
  await shoot(page, 'profile-history', (name) => testInfo.outputPath(name));
});

test("an employer administrator reads only their own scope's entries (issue 21)", async ({ page, browser, baseURL }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const lastName = `Perimetre${letters()}`;
  const user = await createUser(page, 'Clinique des Tilleuls', { lastName });
  const sentence = new RegExp(`^Béatrice Marchand a créé l'utilisateur ${user.name}`);

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

test('a person deleted permanently reads as their pseudonym in the journal, and their name finds nothing (issue 23)', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const lastName = `Efface${letters()}`;
  const user = await createUser(page, 'Clinique des Tilleuls', { lastName });
  const headers = { Authorization: `Bearer ${await bearer(page)}` };
  expect((await page.request.post(`/api/v2/users/${user.id}/deactivate`, { headers })).status()).toBe(200);
  expect((await page.request.delete(`/api/v2/users/${user.id}?hardDelete=true`, { headers })).status()).toBe(204);
  const history = (await (await page.request.get(`/api/v2/audit?userId=${user.id}`, { headers })).json()) as { items: { subject: { label: string } }[] };
  const pseudonym = history.items[0]!.subject.label;
  expect(pseudonym).toMatch(/^Utilisateur supprimé n° \d+$/);

  await sidebar(page).getByRole('link', { name: 'Journal des modifications' }).click();
  await expect(page.getByRole('heading', { name: 'Journal des modifications', level: 1 })).toBeVisible();
  await page.getByPlaceholder('Rechercher par nom ou email...').fill(lastName);
  await expect(page).toHaveURL(new RegExp(`search=${lastName}`));
  await expect(page.getByText('Aucune modification trouvée.')).toBeVisible();

  await page.getByPlaceholder('Rechercher par nom ou email...').fill(pseudonym);
  await expect(page.getByText(`Béatrice Marchand a désactivé ${pseudonym}.`)).toBeVisible();
  await expect(page.getByText(`Béatrice Marchand a supprimé ${pseudonym}.`)).toBeVisible();
  await expect(page.getByText(new RegExp(`^Béatrice Marchand a créé l'utilisateur ${pseudonym}`))).toBeVisible();
  await expect(page.getByText(user.name)).toHaveCount(0);
  await expectNoAxeViolations(page, 'the journal of a deleted person');
});
