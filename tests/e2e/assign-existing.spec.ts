import { expect, test, type Page } from '@playwright/test';
import { bearer, createUser, sidebar, openDashboardAs } from './fixtures';

/** A last name of letters only (spec §5), different on every run. */
const uniqueLastName = (prefix: string) => `${prefix}${Date.now().toString(36).replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!)}${Math.random().toString(36).slice(2, 6).replace(/[0-9]/g, 'x')}`;

/** A pending role request for an existing user, on the SIREN of an employer found by name, made through the API. */
async function requestRoleFor(page: Page, email: string, organizationName: string) {
  const headers = { Authorization: `Bearer ${await bearer(page)}` };
  const orgs = await page.request.get(`/api/v2/organizations?type=SIREN&search=${encodeURIComponent(organizationName)}`, { headers });
  expect(orgs.status()).toBe(200);
  const siren = (await orgs.json()).items[0];
  const answer = await page.request.post(`/api/v2/invitations?organizationId=${siren.id}`, {
    headers,
    data: { inviteeEmail: email, roleCode: 'ADMIN_ADHERENT', invitationType: 'ROLE_ASSIGNMENT', metadata: { isNewUser: false } },
  });
  expect(answer.status(), await answer.text()).toBe(201);
}

async function searchUsers(page: Page, text: string) {
  await page.getByPlaceholder('Rechercher par nom ou email...').fill(text);
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(text).replace(/\./g, '\\.')}`));
}

const candidate = (page: Page, email: string) => page.getByRole('list', { name: 'Utilisateurs' }).getByRole('button', { name: new RegExp(email.replace(/\./g, '\\.')) });

test('back office: the chooser shows both ways and the help box, and the second one leads to assign-existing', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  await sidebar(page).getByRole('link', { name: 'Habilitation des administrateurs' }).click();
  await page.getByRole('button', { name: 'Créer une nouvelle demande' }).click();
  await expect(page).toHaveURL(/\/admin-actions$/);
  await expect(page.getByRole('heading', { name: 'Demander un administrateur', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/Nouvelle demande administrateur/);
  const create = page.getByRole('region', { name: 'Créer un nouveau compte administrateur' });
  await expect(create.getByRole('listitem')).toHaveCount(3);
  await expect(create.getByRole('button', { name: 'Créer un compte administrateur' })).toBeVisible();
  const assign = page.getByRole('region', { name: 'Attribuer le rôle administrateur à un utilisateur existant' });
  await expect(assign.getByText('Aucun nouveau compte à créer')).toBeVisible();
  const help = page.getByRole('complementary', { name: "Besoin d'aide ?" });
  await expect(help).toContainText('du lundi au vendredi');
  await expect(help.getByRole('link', { name: '01 99 00 12 34' })).toHaveAttribute('href', 'tel:0199001234');
  await expect(help.getByRole('link', { name: 'relation.adherents@example.org' })).toHaveAttribute('href', 'mailto:relation.adherents@example.org');

  await assign.getByRole('button', { name: 'Choisir un utilisateur existant' }).click();
  await expect(page).toHaveURL(/\/admin-actions\/assign-existing/);
  await expect(page.getByRole('heading', { name: 'Attribuer le rôle administrateur à un utilisateur existant', level: 1 })).toBeVisible();
});

test('back office cannot pick an administrator nor a user with a pending request, and requests the role for an eligible user', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const eligible = await createUser(page, 'Clinique des Tilleuls', { lastName: uniqueLastName('Eligible') });
  const waiting = await createUser(page, 'Clinique des Tilleuls', { lastName: uniqueLastName('Attente') });
  await requestRoleFor(page, waiting.email, 'Clinique des Tilleuls');

  await page.goto('/admin-actions/assign-existing');
  await expect(page.getByRole('heading', { name: 'Attribuer le rôle administrateur à un utilisateur existant', level: 1 })).toBeVisible();
  const submit = page.getByRole('button', { name: 'Soumettre la demande' });
  await expect(submit).toBeDisabled();

  await searchUsers(page, 'admin.clinique@portail.test');
  await expect(candidate(page, 'admin.clinique@portail.test')).toBeDisabled();
  await expect(candidate(page, 'admin.clinique@portail.test')).toContainText('Cet utilisateur détient déjà un rôle interne');

  await searchUsers(page, waiting.email);
  await expect(candidate(page, waiting.email)).toBeDisabled();
  await expect(candidate(page, waiting.email)).toContainText('Une demande est déjà en attente pour cet utilisateur');

  // The signed-in person is never offered.
  await searchUsers(page, 'backoffice@portail.test');
  await expect(page.getByText('Aucun utilisateur trouvé pour la recherche "backoffice@portail.test"')).toBeVisible();

  await searchUsers(page, eligible.email);
  await candidate(page, eligible.email).click();
  await expect(page.getByRole('region', { name: 'Utilisateur sélectionné' })).toContainText(eligible.email);
  await submit.click();
  await expect(page).toHaveURL(/\/utilisateurs(\?|$)/);
  await expect(page.getByText(`1 demande(s) d'administrateur adhérent créée(s) pour "${eligible.name}".`).first()).toBeVisible();

  await sidebar(page).getByRole('link', { name: 'Habilitation des administrateurs' }).click();
  await page.getByPlaceholder('Rechercher par email ou SIREN...').fill(eligible.email);
  const row = page.getByRole('row', { name: new RegExp(eligible.email.replace(/\./g, '\\.')) });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('En attente')).toBeVisible();
});

test("an employer administrator's 'Demander un administrateur' leads to the chooser", async ({ page }) => {
  await openDashboardAs(page, 'admin.clinique@portail.test');
  await sidebar(page).getByRole('link', { name: 'Gestion des utilisateurs' }).click();
  await page.getByRole('button', { name: 'Demander un administrateur' }).click();
  await expect(page).toHaveURL(/\/admin-actions$/);
  await expect(page.getByRole('heading', { name: 'Demander un administrateur', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Attribuer le rôle administrateur à un utilisateur existant' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: "Besoin d'aide ?" })).toBeVisible();
});
