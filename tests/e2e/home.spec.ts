// Accueil's 'À traiter' (issue 24): what waits for the person signed in, each line a link to the filtered list that
// holds it, whose total is the line's number; and the users list's filter 'État du compte'.
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { createPendingInvitation, createUser, openDashboardAs } from './fixtures';

const work = (page: Page) => page.getByRole('region', { name: 'À traiter' });

/** The total a list screen shows ('Affichage 1-10 sur 42 …'). */
async function listTotal(page: Page): Promise<number> {
  const summary = page.getByText(/^Affichage \d+-\d+ sur \d+ (résultats|utilisateurs|demandes)$/);
  await expect(summary).toBeVisible();
  return Number(/sur (\d+)/.exec((await summary.textContent())!)![1]);
}

const numberIn = (text: string) => Number(/(\d+)/.exec(text)![1]);

/**
 * Every link of 'À traiter' leads to a list whose total is the link's number. Other tests make requests and users at
 * the same time: the list's total is read between two readings of the link, and must be one of them (the API test
 * compares them exactly, on data nobody else changes). Answers the links' texts.
 */
async function followEveryLink(page: Page): Promise<string[]> {
  const links = work(page).getByRole('link');
  await expect(links.first()).toBeVisible();
  const texts = await links.allTextContents();
  for (const [i, text] of texts.entries()) {
    await links.nth(i).click();
    await expect(page).not.toHaveURL(/\/dashboard/);
    const total = await listTotal(page);
    await page.goBack();
    await expect(links.nth(i)).toBeVisible();
    const after = numberIn((await links.nth(i).textContent())!);
    expect([numberIn(text), after], `${text} → ${total}`).toContain(total);
  }
  return texts;
}

test('back office: the requests that wait on Accueil, each link leading to its filtered list with the same total', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  await createPendingInvitation(page, 'Clinique des Tilleuls');
  await page.reload();
  // The spec's content stays.
  await expect(page.getByRole('link', { name: /Espace Adhérent \/ Webservices/ }).first()).toBeVisible();
  const pending = work(page).getByRole('link', { name: /^\d+ demandes? en attente$/ });
  await expect(pending).toBeVisible();
  await pending.click();
  await expect(page).toHaveURL(/\/admin\?.*status=PENDING/);
  await expect(page.getByRole('button', { name: 'En attente', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.goBack();
  const texts = await followEveryLink(page);
  expect(texts.some((text) => /en attente$/.test(text))).toBe(true);
  await expectNoAxeViolations(page, '/dashboard with the work that waits (back office)');

  // The requests list says which of the Accueil's filters it shows, and lets it go.
  await page.goto('/admin?status=PENDING&waiting=expiringSoon');
  await expect(page.getByRole('status').filter({ hasText: 'Filtre : expirent dans les 7 jours.' })).toBeVisible();
  await page.getByRole('button', { name: 'Retirer le filtre' }).click();
  await expect(page).not.toHaveURL(/waiting=/);
  await expect(page).toHaveURL(/status=PENDING/);
  await expectNoAxeViolations(page, '/admin filtered from the Accueil');
});

test('employer administrator: their pending requests and the users who never signed in, each leading to its list', async ({ page }) => {
  await openDashboardAs(page, 'admin.clinique@portail.test');
  const user = await createUser(page, 'Clinique des Tilleuls', { lastName: 'Invitation' });
  await createPendingInvitation(page, 'Clinique des Tilleuls', 'ROLE_ASSIGNMENT');
  await page.reload();
  const notAccepted = work(page).getByRole('link', { name: /^\d+ utilisateurs? n.(a|ont) pas encore accepté/ });
  await expect(notAccepted).toBeVisible();
  await expect(work(page).getByRole('link', { name: /^\d+ de vos demandes (est|sont) en attente$/ })).toBeVisible();
  await followEveryLink(page);

  // The users list filtered 'Invitation non acceptée', in the URL and in the filter, holds the new user.
  await notAccepted.click();
  await expect(page).toHaveURL(/\/utilisateurs\?.*accountState=invitationNotAccepted/);
  await expect(page.getByRole('combobox', { name: 'État du compte' })).toHaveValue('invitationNotAccepted');
  await page.getByPlaceholder('Rechercher par nom ou email...').fill(user.email);
  await expect(page.getByRole('row').filter({ hasText: user.email })).toBeVisible();
  await expectNoAxeViolations(page, "/utilisateurs filtered 'Invitation non acceptée'");
});

test("the users list's 'État du compte' filter is in the URL and keeps only the accounts in that state", async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const invited = await createUser(page, 'EHPAD Les Glycines', { lastName: 'Attente' });
  await page.goto('/utilisateurs');
  const state = page.getByRole('combobox', { name: 'État du compte' });
  await expect(state).toHaveValue('');
  const everyone = await listTotal(page);
  await state.selectOption({ label: 'Invitation non acceptée' });
  await expect(page).toHaveURL(/accountState=invitationNotAccepted/);
  // The previous page stays shown until the filtered one arrives.
  await expect.poll(() => listTotal(page)).toBeLessThan(everyone);
  await page.getByPlaceholder('Rechercher par nom ou email...').fill(invited.email);
  await expect(page.getByRole('row').filter({ hasText: invited.email })).toBeVisible();
  // Just sent: its link has not expired.
  await state.selectOption({ label: "Lien d'activation expiré" });
  await expect(page).toHaveURL(/accountState=setupLinkExpired/);
  await expect(page.getByText('Aucun utilisateur').first()).toBeVisible();
  await state.selectOption({ label: 'Tous' });
  await expect(page).not.toHaveURL(/accountState=/);
});

test('Accueil by keyboard: the first line of the work is reached with Tab and opened with Enter', async ({ page }) => {
  await openDashboardAs(page, 'admin.clinique@portail.test');
  await createUser(page, 'Clinique des Tilleuls', { lastName: 'Clavier' });
  await page.reload();
  const first = work(page).getByRole('link').first();
  await expect(first).toBeVisible();
  for (let i = 0; i < 40 && !(await first.evaluate((el) => el === document.activeElement)); i += 1) await page.keyboard.press('Tab');
  await expect(first).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/\/dashboard/);
  await listTotal(page);
});

test('Accueil at 375 px: the work that waits shows without a horizontal scroll', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await openDashboardAs(page, 'admin.clinique@portail.test');
  await expect(work(page)).toBeVisible();
  await expect(work(page).getByRole('link').first().or(work(page).getByText('Rien à traiter.'))).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});
