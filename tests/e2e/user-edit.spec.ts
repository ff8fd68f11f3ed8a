import { expect, test, type Browser, type Page } from '@playwright/test';
import { bearer, openDashboardAs } from './fixtures';

interface Organization {
  id: string;
  code: string;
  name: string;
}

async function authorized(page: Page) {
  return { Authorization: `Bearer ${await bearer(page)}` };
}

/** A SIREN found by name, with all its SIRETs, as the API gives them. */
async function organizationsOf(page: Page, name: string): Promise<{ siren: Organization; sirets: Organization[] }> {
  const headers = await authorized(page);
  const sirens = await page.request.get(`/api/v2/organizations?type=SIREN&search=${encodeURIComponent(name)}`, { headers });
  expect(sirens.status()).toBe(200);
  const siren = (await sirens.json()).items[0] as Organization;
  const sirets = await page.request.get(`/api/v2/organizations?type=SIRET&parentId=${siren.id}&pageSize=100`, { headers });
  expect(sirets.status()).toBe(200);
  return { siren, sirets: (await sirets.json()).items };
}

/** A new user made through the API by the signed-in person: one SIRET, roles by code. */
async function createUser(page: Page, siretCode: string, roleCodes: string[]) {
  const headers = await authorized(page);
  const roles = (await (await page.request.get('/api/v2/roles', { headers })).json()) as { id: number; code: string }[];
  const email = `e2e.edit.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@exemple-test.fr`;
  const answer = await page.request.post('/api/v2/users/complete', {
    headers,
    data: {
      email,
      firstName: 'Camille',
      lastName: 'Essai',
      jobTitle: 'Assistante RH',
      street: '3 rue des Lilas',
      postalCode: '69003',
      city: 'Lyon',
      organizationCodes: [siretCode],
      roleIds: roleCodes.map((code) => roles.find((r) => r.code === code)!.id),
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return { id: (await answer.json()).user.id as string, email, name: 'Camille Essai' };
}

/** A person of their own, in a context of their own (the config's options given again, whatever the Playwright version). */
async function signedInPage(browser: Browser, baseURL: string | undefined, email: string) {
  const context = await browser.newContext({ baseURL, ignoreHTTPSErrors: true, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const page = await context.newPage();
  await openDashboardAs(page, email);
  return page;
}

const onUsersList = /\/utilisateurs(\?|$)/;

test('back office edits a user of its own making across the four tabs, then reads the profile', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const clinique = await organizationsOf(page, 'Clinique des Tilleuls');
  const ehpad = await organizationsOf(page, 'EHPAD Les Glycines');
  const user = await createUser(page, clinique.sirets[0]!.code, ['RESSOURCE_HUMAINE']);

  await page.goto(`/utilisateurs/edit/${user.id}`);
  await expect(page.getByRole('heading', { name: 'Modifier un utilisateur', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/Modifier un utilisateur/);
  const save = page.getByRole('button', { name: 'Enregistrer' });
  await expect(page.getByLabel('Fonction')).toHaveValue('Assistante RH');
  await expect(save).toBeDisabled();

  await page.getByLabel('Fonction').fill('Responsable paie');
  await expect(save).toBeEnabled();

  await page.getByRole('tab', { name: 'SIREN' }).click();
  await page.getByRole('searchbox', { name: 'Rechercher un SIREN' }).fill('Glycines');
  await page.getByRole('checkbox', { name: new RegExp(ehpad.siren.name) }).check();
  // A SIREN without SIRET: no roles tab, no save.
  await expect(page.getByRole('tab', { name: 'Rôles' })).toBeDisabled();
  await expect(save).toBeDisabled();

  await page.getByRole('tab', { name: 'SIRET' }).click();
  await page.getByRole('checkbox', { name: `Tout sélectionner pour ${ehpad.siren.name}` }).check();
  await expect(page.getByRole('tab', { name: 'Rôles' })).toBeEnabled();

  await page.getByRole('tab', { name: 'Rôles' }).click();
  await page.getByRole('checkbox', { name: 'Comptable', exact: true }).check();
  await save.click();

  await expect(page).toHaveURL(onUsersList);
  await expect(page.getByText(`"${user.name}" a été mis à jour avec succès.`).first()).toBeVisible();

  await page.goto(`/utilisateurs/${user.id}`);
  await expect(page.getByRole('heading', { name: 'Profil utilisateur', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/Profil utilisateur/);
  await expect(page.getByText(user.email, { exact: true })).toBeVisible();
  await expect(page.getByText('Responsable paie', { exact: true })).toBeVisible();
  const ehpadCard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: ehpad.siren.name }) });
  await expect(ehpadCard.getByText(`SIREN ${ehpad.siren.code}`)).toBeVisible();
  for (const siret of ehpad.sirets) {
    const row = ehpadCard.getByRole('listitem').filter({ hasText: `SIRET ${siret.code}` });
    await expect(row.getByText('Comptable', { exact: true })).toBeVisible();
    await expect(row.getByText('Ressources humaines', { exact: true })).toBeVisible();
  }
  const cliniqueCard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: clinique.siren.name }) });
  await expect(cliniqueCard.getByText(`SIRET ${clinique.sirets[0]!.code}`)).toBeVisible();
});

test('a user changed by someone else meanwhile: the page says so and reloads the current version', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const clinique = await organizationsOf(page, 'Clinique des Tilleuls');
  const user = await createUser(page, clinique.sirets[0]!.code, ['RESSOURCE_HUMAINE']);
  await page.goto(`/utilisateurs/edit/${user.id}`);
  await expect(page.getByLabel('Fonction')).toHaveValue('Assistante RH');
  await page.getByLabel('Fonction').fill('Responsable paie');

  const roles = (await (await page.request.get('/api/v2/roles', { headers: await authorized(page) })).json()) as { id: number; code: string }[];
  const other = await page.request.put(`/api/v2/users/${user.id}/complete`, {
    headers: await authorized(page),
    data: {
      firstName: 'Camille',
      lastName: 'Essai',
      email: user.email,
      jobTitle: 'Changé ailleurs',
      phoneNumber: null,
      mobilePhone: null,
      street: '3 rue des Lilas',
      postalCode: '69003',
      city: 'Lyon',
      organizationCodes: [clinique.sirets[0]!.code],
      roleIds: [roles.find((r) => r.code === 'RESSOURCE_HUMAINE')!.id],
    },
  });
  expect(other.status()).toBe(200);

  await page.getByRole('button', { name: 'Enregistrer' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText("Quelqu'un d'autre a modifié cet utilisateur");
  await dialog.getByRole('button', { name: 'Recharger' }).click();
  await expect(page.getByLabel('Fonction')).toHaveValue('Changé ailleurs');
  await expect(page.getByRole('button', { name: 'Enregistrer' })).toBeDisabled();
});

test('a member administrator can edit neither themselves nor another holder of ADMIN_ADHERENT', async ({ browser, baseURL }) => {
  const backOffice = await signedInPage(browser, baseURL, 'backoffice@portail.test');
  const clinique = await organizationsOf(backOffice, 'Clinique des Tilleuls');
  const otherAdmin = await createUser(backOffice, clinique.sirets[0]!.code, ['ADMIN_ADHERENT']);
  await backOffice.context().close();

  const page = await signedInPage(browser, baseURL, 'admin.clinique@portail.test');
  const me = await (await page.request.get('/api/v2/users/me', { headers: await authorized(page) })).json();
  await page.goto(`/utilisateurs/edit/${me.id}`);
  await expect(page).toHaveURL(onUsersList);
  await expect(page.getByText('Vous ne pouvez pas modifier votre propre profil').first()).toBeVisible();

  await page.goto(`/utilisateurs/edit/${otherAdmin.id}`);
  await expect(page).toHaveURL(onUsersList);
  await expect(page.getByText('Vous ne pouvez pas modifier cet utilisateur').first()).toBeVisible();
  await page.context().close();
});

test('an unknown user has no profile', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  await page.goto('/utilisateurs/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Utilisateur introuvable' })).toBeVisible();
  await expect(page.getByText('Aucune donnée.')).toBeVisible();
});
