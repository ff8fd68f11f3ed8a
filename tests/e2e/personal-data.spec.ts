// A person's data on request in the browser (issue 23): the back office downloads a person's data from their profile
// (JSON and the French HTML summary, with the keyboard), and a person downloads their own from 'Mon profil'; each
// download is a journal entry; the screens pass axe with the new section.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { bearer, createUser, openDashboardAs, sidebar } from './fixtures';

const letters = () =>
  Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26)))
    .join('')
    .replace(/^./, (c) => c.toUpperCase());

/** The journal's entries of a download of this person's data, as the back office reads them through the API. */
async function downloadEntries(page: Page, userId: string): Promise<string[]> {
  const headers = { Authorization: `Bearer ${await bearer(page)}` };
  const answer = await page.request.get(`/api/v2/audit?userId=${userId}&action=personal-data.exported`, { headers });
  expect(answer.status()).toBe(200);
  return ((await answer.json()).items as { sentence: string }[]).map((e) => e.sentence);
}

test("the back office downloads a person's data from their profile, as JSON and as a French summary, with the keyboard", async ({ page }, testInfo) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const lastName = `Donnees${letters()}`;
  const user = await createUser(page, 'Clinique des Tilleuls', { lastName, jobTitle: 'Responsable paie' });
  await page.goto(`/utilisateurs/${user.id}`);
  const section = page.getByRole('region', { name: 'Données personnelles' });
  await expect(section.getByRole('heading', { name: 'Données personnelles', level: 2 })).toBeVisible();
  await expectNoAxeViolations(page, "a user's profile with its personal data section");

  // Keyboard: from the profile's 'Modifier', Tab reaches the first download, then the second.
  await page.getByRole('link', { name: 'Modifier' }).focus();
  const json = section.getByRole('button', { name: 'Télécharger (JSON)' });
  await page.keyboard.press('Tab');
  await expect(json).toBeFocused();
  const first = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  const jsonFile = await first;
  expect(jsonFile.suggestedFilename()).toMatch(new RegExp(`^donnees-personnelles-${lastName.toLowerCase()}-camille-\\d{4}-\\d{2}-\\d{2}\\.json$`));
  await expect(section.getByRole('status')).toHaveText(`Fichier enregistré : ${jsonFile.suggestedFilename()}`);
  const data = JSON.parse(fs.readFileSync(await jsonFile.path(), 'utf8'));
  expect(data.person).toMatchObject({ id: user.id, email: user.email, lastName, jobTitle: 'Responsable paie' });
  expect(data.organizations[0]).toMatchObject({ roleCode: 'COMPTABLE', organizationName: expect.stringContaining('Clinique des Tilleuls') });
  expect(data.emails[0].body).toContain('[lien retiré]');
  expect(JSON.stringify(data)).not.toMatch(/https?:\/\//);

  const html = section.getByRole('button', { name: 'Télécharger le résumé (HTML)' });
  await page.keyboard.press('Tab');
  await expect(html).toBeFocused();
  const second = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  const htmlFile = await second;
  expect(htmlFile.suggestedFilename()).toMatch(/\.html$/);
  await expect(section.getByRole('status')).toHaveText(`Fichier enregistré : ${htmlFile.suggestedFilename()}`);
  const summary = fs.readFileSync(await htmlFile.path(), 'utf8');
  expect(summary).toContain('<html lang="fr">');
  expect(summary).toContain(`<h1>Données personnelles de Camille ${lastName}</h1>`);
  expect(summary).not.toMatch(/<script/i);

  // The summary opened as a page: readable, and itself without axe violations.
  const opened = await page.context().newPage();
  await opened.setContent(summary);
  await expect(opened.getByRole('heading', { name: 'Journal des modifications', level: 2 })).toBeVisible();
  await expectNoAxeViolations(opened, 'the HTML summary of a person’s data');
  await opened.close();

  expect(await downloadEntries(page, user.id)).toEqual([
    `Béatrice Marchand a téléchargé les données personnelles de Camille ${lastName}.`,
    `Béatrice Marchand a téléchargé les données personnelles de Camille ${lastName}.`,
  ]);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`personal-data-profile-${width}.png`), fullPage: false });
  }
});

test("a person downloads their own data from 'Mon profil'", async ({ page }, testInfo) => {
  await openDashboardAs(page, 'rh.clinique@portail.test');
  await sidebar(page).getByRole('button', { name: 'Mon profil' }).click();
  const section = sidebar(page).getByRole('region', { name: 'Données personnelles' });
  await expect(section.getByRole('heading', { name: 'Données personnelles', level: 3 })).toBeVisible();
  await expectNoAxeViolations(page, "/dashboard, 'Mon profil' open with the personal data section");

  const button = section.getByRole('button', { name: 'Télécharger le résumé (HTML)' });
  await button.focus();
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^donnees-personnelles-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.html$/);
  await expect(section.getByRole('status')).toHaveText(`Fichier enregistré : ${file.suggestedFilename()}`);
  await expect(button).toBeFocused();
  const summary = fs.readFileSync(await file.path(), 'utf8');
  expect(summary).toContain('rh.clinique@portail.test');
  await page.screenshot({ path: testInfo.outputPath('personal-data-my-profile-1280.png'), fullPage: false });
});
