import { expect, test, type Page } from '@playwright/test';
import { fillWizardDetails, signIn, openDashboardAs } from './fixtures';

/** Letters only (spec §5 names), different on every run. */
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!);
const NEW_PASSWORD = 'Nouveau-Compte-2026';

const stepHeading = (page: Page, name: string) => page.getByRole('heading', { name, level: 2 });

test('back office creates a user on two SIRETs of two SIRENs with two roles; the user is listed and signs in once the account is set up', async ({ page, browser }) => {
  const person = { firstName: 'Élodie', lastName: `Créa${unique()}`, email: `e2e.creation.${unique()}@exemple-test.fr` };
  await openDashboardAs(page, 'backoffice@portail.test');
  await page.goto('/utilisateurs');
  await page.getByRole('button', { name: 'Ajouter un utilisateur' }).click();
  await expect(page.getByRole('heading', { name: 'Créer un utilisateur', level: 1 })).toBeVisible();
  await expect(page.getByText('Étape 1/4')).toBeVisible();
  await fillWizardDetails(page, person);
  await page.getByRole('button', { name: 'Suivant', exact: true }).click();

  await expect(stepHeading(page, 'Sélectionnez un ou plusieurs SIREN')).toBeVisible();
  const sirenSearch = page.getByRole('searchbox', { name: 'Rechercher un SIREN' });
  for (const name of ['Clinique des Tilleuls', 'EHPAD Les Glycines']) {
    await sirenSearch.fill(name);
    await page.getByRole('checkbox', { name: new RegExp(name) }).check();
  }
  await expect(page.getByText('2 SIREN sélectionné(s)')).toBeVisible();
  await page.getByRole('button', { name: 'Suivant', exact: true }).click();

  await expect(stepHeading(page, 'Sélectionnez les SIRET où attribuer des rôles')).toBeVisible();
  const next = page.getByRole('button', { name: 'Suivant', exact: true });
  await expect(next).toBeDisabled();
  await page.getByRole('checkbox', { name: /Clinique des Tilleuls - Lyon/ }).check();
  await expect(next).toBeDisabled();
  await page.getByRole('checkbox', { name: /EHPAD Les Glycines - Nantes/ }).check();
  await next.click();

  await expect(stepHeading(page, 'Rôles')).toBeVisible();
  await expect(page.getByText('Veuillez sélectionner au moins un rôle.')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /Admin Adhérent/ })).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Adhésion', exact: true }).check();
  await page.getByRole('checkbox', { name: 'Comptable', exact: true }).check();
  await page.getByRole('button', { name: 'Créer Utilisateur' }).click();

  await expect(page).toHaveURL(/\/utilisateurs\?/);
  await expect(page.getByText('Utilisateur créé avec succès.').first()).toBeVisible();
  await page.getByPlaceholder('Rechercher par nom ou email...').fill(person.email);
  const row = page.getByRole('row', { name: new RegExp(person.lastName) });
  await expect(row).toContainText(person.email);
  await expect(row).toContainText('Adhésion');

  // The new person, in a browser of their own: the set-up link of the local mailbox, a password, the sign-in.
  const own = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'fr-FR' });
  const newcomer = await own.newPage();
  await newcomer.goto(`/oidc/dev/mailbox?to=${encodeURIComponent(person.email)}`);
  await newcomer.getByRole('link', { name: /\/oidc\/account\/setup\?token=/ }).click();
  await expect(newcomer.getByRole('heading', { name: 'Choisissez votre mot de passe' })).toBeVisible();
  await newcomer.getByLabel('Mot de passe', { exact: true }).fill(NEW_PASSWORD);
  await newcomer.getByLabel('Confirmez le mot de passe').fill(NEW_PASSWORD);
  await newcomer.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
  await expect(newcomer.getByRole('heading', { name: 'Mot de passe enregistré' })).toBeVisible();
  await signIn(newcomer, person.email, NEW_PASSWORD);
  await newcomer.waitForURL('**/dashboard');
  await expect(newcomer.getByText(`Bonjour ${person.firstName} ${person.lastName}`)).toBeVisible();
  await own.close();
});

test("a member administrator requests an administrator for 'Clinique des Tilleuls'; back office sees it pending", async ({ page, browser }) => {
  const person = { firstName: 'Maëlle', lastName: `Admin${unique()}`, email: `e2e.admin.${unique()}@exemple-test.fr` };
  await openDashboardAs(page, 'admin.clinique@portail.test');
  await page.goto('/utilisateurs');
  await page.getByRole('button', { name: 'Demander un administrateur' }).click();
  await expect(page).toHaveURL(/\/admin-actions$/);
  await page.getByRole('button', { name: 'Créer un compte administrateur' }).click();
  await expect(page.getByRole('heading', { name: 'Demander un administrateur', level: 1 })).toBeVisible();
  await fillWizardDetails(page, person);
  await page.getByRole('button', { name: 'Suivant', exact: true }).click();

  // The only SIREN of this member administrator, chosen already, by radio button.
  await expect(page.getByRole('radio', { name: /Clinique des Tilleuls/ })).toBeChecked();
  await page.getByRole('button', { name: 'Suivant', exact: true }).click();
  await expect(page.getByText("Demande d'administrateur : tous les SIRET de ce SIREN sont sélectionnés automatiquement.")).toBeVisible();
  const lyon = page.getByRole('checkbox', { name: /Clinique des Tilleuls - Lyon/ });
  await expect(lyon).toBeChecked();
  await expect(lyon).toBeDisabled();
  await page.getByRole('button', { name: 'Suivant', exact: true }).click();
  await expect(page.getByRole('checkbox', { name: /Admin Adhérent/ })).toBeChecked();
  await page.getByRole('button', { name: 'Créer Administrateur' }).click();
  await expect(page).toHaveURL(/\/utilisateurs\?/);
  await expect(page.getByText('Invitation envoyée avec succès.').first()).toBeVisible();

  const staff = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const backOffice = await staff.newPage();
  await openDashboardAs(backOffice, 'backoffice@portail.test');
  await backOffice.goto('/admin');
  await backOffice.getByPlaceholder('Rechercher par email ou SIREN...').fill(person.email);
  const row = backOffice.getByRole('row', { name: new RegExp(person.email.replace(/\./g, '\\.')) });
  await expect(row).toContainText('787441799');
  await expect(row).toContainText('En attente');
  await staff.close();
});
