// Issue 22 in the browser: actions on many users from the users list (the back office deactivates two people,
// one of them already inactive: a report with one refusal), by keyboard, with axe and at 1280 and 375 px; set-up
// links sent again by an employer administrator from the row's menu and the profile.
import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { bearer, createUser, openDashboardAs, sidebar } from './fixtures';

/** Letters only (spec §5 names), different on every run. */
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!);
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-c';
const today = () => new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeZone: 'Europe/Paris' }).format(new Date());

async function openUsers(page: Page) {
  await sidebar(page).getByRole('link', { name: 'Gestion des utilisateurs' }).click();
  await expect(page.getByRole('table')).toBeVisible();
}

async function searchFor(page: Page, text: string, rows: number) {
  await page.getByPlaceholder('Rechercher par nom ou email...').fill(text);
  await expect(page).toHaveURL(/search=/);
  await expect(page.getByRole('table')).not.toHaveAttribute('aria-busy', 'true');
  await expect(page.getByRole('row')).toHaveCount(rows + 1);
}

/** A box is drawn at once; it works once the selection's code has arrived. */
const box = async (page: Page, name: string): Promise<Locator> => {
  const found = page.getByRole('checkbox', { name: `Sélectionner ${name}` });
  await expect(found).toBeEnabled();
  return found;
};
const toolbar = (page: Page) => page.getByRole('region', { name: 'Actions sur la sélection' });

async function shoot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('the back office deactivates two people at once: a confirmation, the progress, a report with one refusal (already inactive)', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const family = `Groupe${unique()}`;
  const active = await createUser(page, 'Clinique des Tilleuls', { lastName: `${family}Actif` });
  const inactive = await createUser(page, 'Clinique des Tilleuls', { lastName: `${family}Inactif` });
  const headers = { Authorization: `Bearer ${await bearer(page)}` };
  expect((await page.request.post(`/api/v2/users/${inactive.id}/deactivate`, { headers })).status()).toBe(200);

  await openUsers(page);
  await searchFor(page, family, 2);
  await (await box(page, active.name)).check();
  await (await box(page, inactive.name)).check();
  await expect(toolbar(page).getByText('2 sélectionné(s)')).toBeVisible();
  await expect(toolbar(page).getByRole('button', { name: 'Supprimer définitivement' })).toBeVisible();
  await expectNoAxeViolations(page, 'the users list with the selection toolbar');
  await shoot(page, 'users-selection-toolbar');

  await toolbar(page).getByRole('button', { name: 'Désactiver' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Désactiver 2 utilisateurs' });
  await expect(dialog).toContainText('Êtes-vous sûr de vouloir désactiver 2 utilisateurs ?');
  await expectNoAxeViolations(page, 'the confirmation of an action on the selection');
  await shoot(page, 'users-bulk-confirmation');
  await dialog.getByRole('button', { name: 'Confirmer' }).click();

  const report = page.getByRole('alertdialog', { name: 'Désactivation terminée' });
  await expect(report).toBeVisible({ timeout: 20_000 });
  await expect(report).toContainText('1 sur 2 utilisateurs : réussi.');
  const refusals = report.getByRole('list', { name: '1 refus' });
  await expect(refusals.getByRole('listitem')).toHaveCount(1);
  await expect(refusals).toContainText(inactive.name);
  await expect(refusals).toContainText('Ce compte est déjà désactivé.');
  await expectNoAxeViolations(page, 'the report of an action on the selection');
  await shoot(page, 'users-bulk-report');
  await report.getByRole('button', { name: 'Fermer' }).click();
  await expect(report).toBeHidden();
  await expect(toolbar(page)).toHaveCount(0);
  // The list was read again: both now inactive.
  await expect(page.getByRole('row').filter({ hasText: active.email }).getByRole('img', { name: 'Utilisateur désactivé' })).toBeVisible();
});

test("the back office selects every result of the filters with 'Sélectionner les N utilisateurs', N the list's exact total", async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  await openUsers(page);
  await page.getByLabel('Filtrer par rôle :').selectOption({ label: 'Comptable' });
  await expect(page).toHaveURL(/role=COMPTABLE/);
  await expect(page.getByRole('table')).not.toHaveAttribute('aria-busy', 'true');
  const summary = await page.getByText(/^Affichage 1-10 sur \d+ utilisateurs$/).textContent();
  const total = Number(/sur (\d+) utilisateurs/.exec(summary!)![1]);
  expect(total).toBeGreaterThan(10);
  const pageBox = page.getByRole('checkbox', { name: 'Sélectionner les utilisateurs de la page' });
  await expect(pageBox).toBeEnabled();
  await pageBox.check();
  await expect(toolbar(page).getByText('10 sélectionné(s)')).toBeVisible();
  await toolbar(page).getByRole('button', { name: `Sélectionner les ${total} utilisateurs` }).click();
  await expect(toolbar(page).getByText(`${total} sélectionné(s)`)).toBeVisible();
  await expect(toolbar(page)).toContainText(`Les ${total} utilisateurs des filtres sont sélectionnés.`);
  await shoot(page, 'users-select-all');
  // Another page keeps it; other filters clear it.
  await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Page 2' }).click();
  await expect(page.getByText(/^Affichage 11-20 sur \d+ utilisateurs$/)).toBeVisible();
  await expect(toolbar(page).getByText(`${total} sélectionné(s)`)).toBeVisible();
  await page.getByLabel('Filtrer par rôle :').selectOption({ label: 'Tous' });
  await expect(toolbar(page)).toHaveCount(0);
});

test('the back office by keyboard: Space ticks a person, Enter opens the action, Escape cancels, Tab and Enter confirm', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const person = await createUser(page, 'Clinique des Tilleuls', { lastName: `Clavier${unique()}` });
  await openUsers(page);
  await searchFor(page, person.email, 1);
  const tick = await box(page, person.name);
  await tick.focus();
  await page.keyboard.press('Space');
  await expect(tick).toBeChecked();
  await expect(toolbar(page).getByText('1 sélectionné(s)')).toBeVisible();

  // The toolbar follows the table: on to its action with Tab.
  const deactivate = toolbar(page).getByRole('button', { name: 'Désactiver' });
  for (let presses = 0; presses < 20 && !(await deactivate.evaluate((e) => e === document.activeElement)); presses++) await page.keyboard.press('Tab');
  await expect(deactivate).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: 'Désactiver 1 utilisateur' });
  await expect(dialog.getByRole('button', { name: 'Annuler' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(deactivate).toBeFocused();
  await expect(toolbar(page).getByText('1 sélectionné(s)')).toBeVisible();

  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Annuler' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Confirmer' })).toBeFocused();
  await page.keyboard.press('Enter');
  const report = page.getByRole('alertdialog', { name: 'Désactivation terminée' });
  await expect(report).toContainText('1 sur 1 utilisateur : réussi.', { timeout: 20_000 });
  await expect(report.getByRole('button', { name: 'Fermer' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(report).toBeHidden();
  // The toolbar has gone with the selection: the focus lands nearby, not on the page's body.
  expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
  await expect(page.getByRole('row').filter({ hasText: person.email }).getByRole('img', { name: 'Utilisateur désactivé' })).toBeVisible();
});

test("an employer administrator sends a set-up link again to a person who never signed in: 'Invitation envoyée le …' in the list and on the profile", async ({ page }) => {
  await openDashboardAs(page, 'admin.clinique@portail.test');
  const person = await createUser(page, 'Clinique des Tilleuls', { lastName: `Invite${unique()}` });
  await openUsers(page);
  await searchFor(page, person.email, 1);
  const row = page.getByRole('row').filter({ hasText: person.email });
  await expect(row).toContainText(`Invitation envoyée le ${today()}`);
  await expect(row).not.toContainText('N/A');

  await row.getByRole('button', { name: `Actions pour ${person.name}` }).click();
  await page.getByRole('menuitem', { name: "Renvoyer l'invitation" }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(`Renvoyer l'invitation à ${person.name} ?`);
  await dialog.getByRole('button', { name: 'Confirmer' }).click();
  await expect(page.getByText(`Un nouveau lien a été envoyé à "${person.name}".`).first()).toBeVisible();
  await expect(row).toContainText(`Invitation envoyée le ${today()}`);

  // The profile says the same, and offers it too.
  await row.getByRole('button', { name: `Actions pour ${person.name}` }).click();
  await page.getByRole('menuitem', { name: 'Voir le profil' }).click();
  await expect(page.getByRole('heading', { name: 'Profil utilisateur' })).toBeVisible();
  await expect(page.getByText(`Invitation envoyée le ${today()}`)).toBeVisible();
  await page.getByRole('button', { name: "Renvoyer l'invitation" }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirmer' }).click();
  await expect(page.getByText(`Un nouveau lien a été envoyé à "${person.name}".`).first()).toBeVisible();

  // The selection's toolbar of an employer administrator: no permanent delete.
  await openUsers(page);
  await searchFor(page, person.email, 1);
  await (await box(page, person.name)).check();
  await expect(toolbar(page).getByRole('button', { name: "Renvoyer l'invitation" })).toBeVisible();
  await expect(toolbar(page).getByRole('button', { name: 'Supprimer définitivement' })).toHaveCount(0);
  // Its CSV holds exactly the people ticked.
  const download = page.waitForEvent('download');
  await toolbar(page).getByRole('button', { name: 'Exporter la sélection (CSV)' }).click();
  const file = await download;
  await expect(toolbar(page).getByRole('status').filter({ hasText: 'Export terminé : 1 ligne.' })).toBeVisible();
  const lines = fs.readFileSync(await file.path(), 'utf8').trim().split('\r\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(person.email);
});
