import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { createUser, openDashboardAs } from './fixtures';

/** Full-page screenshots of the current screen at 1280 and 375 px, into this test's output folder. */
async function shoot(page: Page, name: string, outputPath: (name: string) => string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("a changed e-mail waits for its owner: pending on the profile and the edit page, confirmed from the link sent there (issue 19)", async ({ page, browser, baseURL }, testInfo) => {
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

  // The person, in a browser of their own: the notice at the old address, the link at the new one, the confirmation.
  const own = await browser.newContext({ baseURL, ignoreHTTPSErrors: true, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const person = await own.newPage();
  await person.goto(`/oidc/dev/mailbox?to=${encodeURIComponent(user.email)}`);
  await expect(person.getByRole('heading', { name: 'Votre adresse de connexion va changer' })).toBeVisible();
  await person.goto(`/oidc/dev/mailbox?to=${encodeURIComponent(next)}`);
  await person.getByRole('link', { name: /\/compte\/confirmer-email\?token=/ }).click();
  await expect(person.getByRole('heading', { name: 'Confirmez votre nouvelle adresse', level: 1 })).toBeVisible();
  await expect(person.getByText(next)).toBeVisible();
  await expectNoAxeViolations(person, 'the e-mail confirmation page');
  await shoot(person, 'confirm-email-page', (name) => testInfo.outputPath(name));
  await person.getByRole('button', { name: 'Confirmer cette adresse' }).click();
  await expect(person.getByRole('heading', { name: 'Adresse confirmée', level: 1 })).toBeVisible();
  await shoot(person, 'confirm-email-done', (name) => testInfo.outputPath(name));
  // The link is single-use.
  await person.goBack();
  await person.reload();
  await expect(person.getByRole('heading', { name: 'Lien invalide', level: 1 })).toBeVisible();
  await own.close();

  await page.goto(`/utilisateurs/${user.id}`);
  await expect(page.getByText(next, { exact: true })).toBeVisible();
  await expect(page.getByText(/Adresse en attente de confirmation/)).toHaveCount(0);
});
