import { expect, test, type Page } from '@playwright/test';
import { createUser, sidebar, openDashboardAs } from './fixtures';

async function openUsers(page: Page) {
  await sidebar(page).getByRole('link', { name: 'Gestion des utilisateurs' }).click();
  await expect(page.getByRole('table')).toBeVisible();
}

async function searchFor(page: Page, text: string) {
  await page.getByPlaceholder('Rechercher par nom ou email...').fill(text);
  await expect(page).toHaveURL(/search=/);
}

const rowOf = (page: Page, email: string) => page.getByRole('row').filter({ hasText: email });

test('back office filters by SIREN, SIRET and role, searches, sorts and pages', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  await openUsers(page);
  await expect(page.getByText(/^Affichage 1-10 sur \d+ utilisateurs$/)).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'SIRET', exact: true })).toHaveCount(0);

  // The SIREN filter: a combobox searched on the server; the option is picked by name, as a person would.
  const siren = page.getByRole('combobox', { name: 'SIREN', exact: true });
  const sirenOptions = page.getByRole('listbox', { name: 'SIREN', exact: true }).getByRole('option');
  await expect(siren).toHaveValue('Tous');
  await siren.fill('Tilleuls');
  await expect(sirenOptions).toHaveText([/^Clinique des Tilleuls \(\d{9}\)$/]);
  await sirenOptions.first().click();
  await expect(page).toHaveURL(/siren=/);
  await expect(siren).toHaveValue(/^Clinique des Tilleuls \(\d{9}\)$/);
  const clinic = await siren.inputValue();
  // Another search that leaves the chosen SIREN out, then Escape: the choice stays, and shows.
  await siren.fill('Glycines');
  await expect(sirenOptions).toHaveText([/^EHPAD Les Glycines/]);
  await siren.press('Escape');
  await expect(siren).toHaveValue(clinic);
  await expect(page).toHaveURL(/siren=/);

  // The SIRET filter, by keyboard: 'Tous' first (the clinic has several), ArrowDown to the first SIRET, Enter.
  const siret = page.getByRole('combobox', { name: 'SIRET', exact: true });
  await expect(siret).toHaveValue('Tous');
  await siret.focus();
  await siret.press('ArrowDown');
  const siretOptions = page.getByRole('listbox', { name: 'SIRET', exact: true }).getByRole('option');
  await expect(siretOptions.nth(1)).toHaveText(/^Clinique des Tilleuls.* \(\d{14}\)$/);
  await expect(siretOptions.first()).toHaveText('Tous');
  const firstSiret = await siretOptions.nth(1).textContent();
  await siret.press('ArrowDown');
  await siret.press('Enter');
  await expect(page).toHaveURL(/siret=/);
  await expect(siret).toHaveValue(firstSiret!);
  await expect(page.getByRole('row').nth(1)).toBeVisible();

  // 'Tous' clears the SIREN, and with it the SIRET filter.
  await siren.click();
  await page.getByRole('listbox', { name: 'SIREN', exact: true }).getByRole('option', { name: 'Tous' }).click();
  await expect(page).not.toHaveURL(/siren=/);
  await expect(siren).toHaveValue('Tous');
  await expect(siret).toHaveCount(0);

  await page.getByLabel('Filtrer par rôle :').selectOption({ label: 'Comptable' });
  await expect(page).toHaveURL(/role=COMPTABLE/);
  // (The first column holds the selection's boxes, issue 22.)
  const badges = page.getByRole('row').locator('td:nth-child(5)');
  await expect(badges.first()).toBeVisible();

  await page.getByLabel('Filtrer par rôle :').selectOption({ label: 'Tous' });
  await page.getByRole('columnheader', { name: /Email/ }).getByRole('button').click();
  await expect(page).toHaveURL(/sort=email/);
  // Drawn from the new URL (the header's order): the previous page stays on screen, the table busy, until the
  // sorted one arrives (keepPreviousData).
  await expect(page.getByRole('columnheader', { name: /Email/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByRole('table')).not.toHaveAttribute('aria-busy', 'true');
  const emails = await page.getByRole('row').locator('td:nth-child(3)').allTextContents();
  expect(emails.length).toBeGreaterThan(1);
  expect(emails).toEqual([...emails].sort((a, b) => a.localeCompare(b)));
  await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Page 2' }).click();
  await expect(page.getByText(/^Affichage 11-20 sur \d+ utilisateurs$/)).toBeVisible();

  await searchFor(page, 'personne-inexistante-xyz');
  await expect(page.getByText('Aucun utilisateur trouvé')).toBeVisible();
  await expect(page.getByText('Aucun utilisateur', { exact: true })).toBeVisible();
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true });

  test("a tap on '+n' lists a user's other roles, and a tap elsewhere hides them", async ({ page }) => {
    await openDashboardAs(page, 'backoffice@portail.test');
    const user = await createUser(page, 'Clinique des Tilleuls', { lastName: 'Toucher', roleCodes: ['COMPTABLE', 'RESSOURCE_HUMAINE'] });
    await openUsers(page);
    await searchFor(page, user.email);
    const plus = rowOf(page, user.email).getByRole('button', { name: /autre\(s\) rôle\(s\)/ });
    await plus.tap();
    await expect(page.getByRole('tooltip')).toBeVisible();
    await page.getByRole('heading', { name: 'Gestion des utilisateurs' }).tap();
    await expect(page.getByRole('tooltip')).toHaveCount(0);
  });
});

test('back office deactivates then reactivates a user', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const user = await createUser(page, 'Clinique des Tilleuls', { lastName: 'Activation' });
  await openUsers(page);
  await searchFor(page, user.email);
  const row = rowOf(page, user.email);
  await row.getByRole('button', { name: `Actions pour ${user.name}` }).click();
  await page.getByRole('menuitem', { name: 'Désactiver' }).click();
  await expect(page.getByRole('alertdialog')).toContainText(`Êtes-vous sûr de vouloir désactiver ${user.name} ?`);
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirmer' }).click();
  await expect(page.getByText(`"${user.name}" a été désactivé avec succès.`).first()).toBeVisible();
  await expect(row.getByRole('img', { name: 'Utilisateur désactivé' })).toBeVisible();

  await row.getByRole('button', { name: `Actions pour ${user.name}` }).click();
  await page.getByRole('menuitem', { name: 'Activer' }).click();
  await expect(page.getByRole('alertdialog')).toContainText(`Êtes-vous sûr de vouloir réactiver ${user.name} ?`);
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirmer' }).click();
  await expect(page.getByText(`"${user.name}" a été activé avec succès.`).first()).toBeVisible();
  await expect(row.getByRole('img', { name: 'Utilisateur désactivé' })).toHaveCount(0);
});

test('back office deletes a user for good: the row goes and the total drops by one', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const lastName = `Suppression${Date.now().toString(36).replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!)}`;
  const first = await createUser(page, 'EHPAD Les Glycines', { lastName });
  await createUser(page, 'EHPAD Les Glycines', { lastName });
  await openUsers(page);
  await searchFor(page, lastName);
  await expect(page.getByText('Affichage 1-2 sur 2 utilisateurs')).toBeVisible();
  await rowOf(page, first.email).getByRole('button', { name: `Actions pour ${first.name}` }).click();
  await page.getByRole('menuitem', { name: 'Supprimer définitivement' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('irréversible');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirmer' }).click();
  await expect(page.getByText(`L'utilisateur "${first.name}" a été supprimé définitivement.`).first()).toBeVisible();
  await expect(page.getByText('Affichage 1-1 sur 1 utilisateurs')).toBeVisible();
  await expect(rowOf(page, first.email)).toHaveCount(0);
});

test("an employer administrator sees only the clinic's users and cannot change an administrator or themselves", async ({ page }) => {
  await openDashboardAs(page, 'admin.clinique@portail.test');
  await openUsers(page);
  await expect(page.getByRole('heading', { name: 'Gestion des utilisateurs - Clinique des Tilleuls' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Demander un administrateur' })).toBeVisible();
  await searchFor(page, 'admin.ehpad@portail.test');
  await expect(page.getByText('Aucun utilisateur trouvé')).toBeVisible();
  await searchFor(page, 'admin.clinique@portail.test');
  const self = rowOf(page, 'admin.clinique@portail.test');
  await expect(self.getByRole('button', { name: /^Modifier/ })).toBeDisabled();
  await self.getByRole('button', { name: /^Actions pour/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Impossible de désactiver' })).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Escape');
  // Another administrator of the clinic.
  await page.getByPlaceholder('Rechercher par nom ou email...').fill('');
  await page.getByLabel('Filtrer par rôle :').selectOption({ label: 'Admin Adhérent' });
  const admins = page.getByRole('row').filter({ hasNot: page.getByText('admin.clinique@portail.test') }).filter({ has: page.getByRole('button', { name: /^Modifier/ }) });
  await expect(admins.first().getByRole('button', { name: /^Modifier/ })).toBeDisabled();
  await admins.first().getByRole('button', { name: /^Actions pour/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Impossible de désactiver' })).toHaveAttribute('aria-disabled', 'true');
});

test('a read-only back-office user has no permanent delete, and a user without USER_LIST finds an empty list', async ({ page, browser }) => {
  await openDashboardAs(page, 'lecteur@portail.test');
  await openUsers(page);
  await expect(page.getByRole('button', { name: 'Ajouter un utilisateur' })).toHaveCount(0);
  // What the server's allowedActions leave out is disabled with its reason (issue 19).
  const edit = page.getByRole('button', { name: /^Modifier/ }).first();
  await expect(edit).toHaveAttribute('aria-disabled', 'true');
  await edit.focus();
  await expect(page.getByRole('tooltip')).toContainText("Vous n'avez pas le droit de modifier cet utilisateur.");
  await page.getByRole('button', { name: /^Actions pour/ }).first().click();
  await expect(page.getByRole('menuitem', { name: 'Voir le profil' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: /Désactiver|Activer/ })).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByRole('menuitem', { name: /Désactiver|Activer/ })).toContainText(/Vous n'avez pas le droit d(e désactiver|'activer) cet utilisateur\./);
  await expect(page.getByRole('menuitem', { name: 'Supprimer définitivement' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  const other = await browser.newContext({ ignoreHTTPSErrors: true });
  const rh = await other.newPage();
  await openDashboardAs(rh, 'rh.clinique@portail.test');
  // No menu entry, but the page is a signed-in page (spec §2); the list stays empty (§8).
  await expect(sidebar(rh).getByRole('link', { name: 'Gestion des utilisateurs' })).toHaveCount(0);
  await rh.goto('/utilisateurs');
  await expect(rh.getByText('Aucun utilisateur trouvé')).toBeVisible();
  await other.close();
});

test("the list's data leaves with the screen's code, not after it: the request is made while the screen's chunk is still held (issue 18)", async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  // The users screen's own chunk is held on its way; its data must not wait for it.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const listRequests: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/v2/users') listRequests.push(r.url());
  });
  await page.route(/\/assets\/users\.lazy-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const listRequest = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/v2/users');
  await page.goto('/utilisateurs?sort=email');
  const request = await listRequest;
  expect(new URL(request.url()).searchParams.get('sort')).toBe('email');
  await expect(page.getByRole('heading', { name: 'Gestion des utilisateurs', level: 1 })).toHaveCount(0);
  release();
  await expect(page.getByRole('table')).toBeVisible();
  // The screen took the loader's answer: one request for that page of the list, not two.
  expect(listRequests).toHaveLength(1);
});
