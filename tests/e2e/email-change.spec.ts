import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { createUser, openDashboardAs } from './fixtures';

const PASSWORD = 'Adresse-Confirmee-2026';

/** Full-page screenshots of the current screen at 1280 and 375 px, into this test's output folder. */
async function shoot(page: Page, name: string, outputPath: (name: string) => string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("a changed e-mail waits for its owner: pending on the profile and the edit page; the link sent there confirms it only for the person, signed in with their current address (issue 19)", async ({ page, browser, baseURL }, testInfo) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const user = await createUser(page, 'Clinique des Tilleuls', { lastName: 'Courriel' });
  const next = `e2e.nouvelle.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@exemple-test.fr`;
  const pending = `Adresse en attente de confirmation : ${next}`;

  await page.goto(`/utilisateurs/edit/${user.id}`);
  await expect(page.getByRole('heading', { name: 'Modifier un utilisateur', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Email' }).fill(next);
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page).toHaveURL(/\/utilisateurs(\?|$)/);
  await expect(page.getByText(`Un lien de confirmation a été envoyé à ${next} : l'adresse changera quand la personne l'aura confirmée.`).first()).toBeVisible();

  // Nothing changed yet but the pending address: the profile and the edit page say so.
  await page.goto(`/utilisateurs/${user.id}`);
  await expect(page.getByRole('heading', { name: 'Profil utilisateur', level: 1 })).toBeVisible();
  await expect(page.getByText(user.email, { exact: true })).toBeVisible();
  await expect(page.getByText(pending)).toBeVisible();
  await expectNoAxeViolations(page, 'the profile with a pending address');
  await shoot(page, 'profile-pending-email', (name) => testInfo.outputPath(name));
  await page.goto(`/utilisateurs/edit/${user.id}`);
  await expect(page.getByText(pending)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(user.email);
  await shoot(page, 'edit-pending-email', (name) => testInfo.outputPath(name));

  // The editor holds the link too (whoever reads the new mailbox does), but confirming needs the person's own
  // account: signed in as back office, the page says there is nothing to confirm for this account.
  await page.goto(`/oidc/dev/mailbox?to=${encodeURIComponent(next)}`);
  const link = await page.getByRole('link', { name: /\/compte\/confirmer-email\?token=/ }).getAttribute('href');
  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Aucune adresse à confirmer', level: 1 })).toBeVisible();
  await expect(page.getByText(`Aucune nouvelle adresse n'attend de confirmation pour le compte connecté (backoffice@portail.test).`)).toBeVisible();
  await expectNoAxeViolations(page, 'the confirmation page for another account');
  await shoot(page, 'confirm-email-other-account', (name) => testInfo.outputPath(name));

  // The person, in a browser of their own: the notice and the set-up link at the current address, a password,
  // then the link at the new one, which asks them to sign in with their current address and comes back.
  const own = await browser.newContext({ baseURL, ignoreHTTPSErrors: true, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const person = await own.newPage();
  await person.goto(`/oidc/dev/mailbox?to=${encodeURIComponent(user.email)}`);
  await expect(person.getByRole('heading', { name: 'Votre adresse de connexion va changer' })).toBeVisible();
  await person.getByRole('link', { name: /\/oidc\/account\/setup\?token=/ }).click();
  await person.getByLabel('Mot de passe', { exact: true }).fill(PASSWORD);
  await person.getByLabel('Confirmez le mot de passe').fill(PASSWORD);
  await person.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
  await expect(person.getByRole('heading', { name: 'Mot de passe enregistré' })).toBeVisible();

  await person.goto(link!);
  await person.waitForURL(/\/oidc\/interaction\//);
  await person.getByLabel('Adresse email').fill(user.email);
  await person.getByLabel('Mot de passe').fill(PASSWORD);
  await person.getByRole('button', { name: 'Se connecter' }).click();
  await person.waitForURL(/\/compte\/confirmer-email\?token=/);
  await expect(person.getByRole('heading', { name: 'Confirmez votre nouvelle adresse', level: 1 })).toBeVisible();
  await expect(person.getByRole('definition').filter({ hasText: user.email })).toBeVisible();
  await expect(person.getByRole('definition').filter({ hasText: next })).toBeVisible();
  await expect(person.getByText(/^Ne confirmez que si vous avez demandé ce changement vous-même/)).toBeVisible();
  await expectNoAxeViolations(person, 'the e-mail confirmation page');
  await shoot(person, 'confirm-email-page', (name) => testInfo.outputPath(name));
  // Keyboard: the confirmation is a button reached and pressed without a mouse.
  await person.getByRole('button', { name: 'Confirmer cette adresse' }).focus();
  await person.keyboard.press('Enter');
  await expect(person.getByRole('heading', { name: 'Adresse confirmée', level: 1 })).toBeVisible();
  await expect(person.getByText(`Votre nouvelle adresse est confirmée. Connectez-vous désormais avec ${next}.`)).toBeVisible();
  await shoot(person, 'confirm-email-done', (name) => testInfo.outputPath(name));
  // The link is used: the account, read again, has nothing left to confirm.
  await person.reload();
  await expect(person.getByRole('heading', { name: 'Aucune adresse à confirmer', level: 1 })).toBeVisible();
  await expect(person.getByText(`Aucune nouvelle adresse n'attend de confirmation pour le compte connecté (${next}).`)).toBeVisible();
  await own.close();

  await page.goto(`/utilisateurs/${user.id}`);
  await expect(page.getByText(next, { exact: true })).toBeVisible();
  await expect(page.getByText(/Adresse en attente de confirmation/)).toHaveCount(0);
});
