// Issue 22 in the browser: an employer administrator cancels their own request from 'Mes demandes'; the back office
// sees it 'Annulée' on /admin with 'Approuver' disabled, and who cancelled it in the detail; the demo's expired
// requests show 'Expirée'.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { buildDemoPlan } from '../../server/seed/seed-plan.ts';
import { createPendingInvitation, openDashboardAs } from './fixtures';

const escaped = (text: string) => text.replace(/[.]/g, '\\.');

async function backOfficePage(browser: Browser) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const page = await context.newPage();
  await openDashboardAs(page, 'backoffice@portail.test');
  return page;
}

async function openMyRequests(page: Page) {
  await page.goto('/admin-actions');
  await page.getByRole('link', { name: 'Voir mes demandes' }).click();
  await expect(page).toHaveURL(/\/admin-actions\/demandes/);
  await expect(page.getByRole('heading', { name: 'Mes demandes', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/Mes demandes/);
}

test("an employer administrator cancels their own request from 'Mes demandes'; the back office sees it 'Annulée', not to be approved", async ({ page, browser }) => {
  await openDashboardAs(page, 'admin.clinique@portail.test');
  const request = await createPendingInvitation(page, 'Clinique des Tilleuls');
  await openMyRequests(page);
  const row = page.getByRole('row', { name: new RegExp(escaped(request.email)) });
  await expect(row).toContainText('En attente');
  await expect(row).toContainText(/expire le \d{2}\/\d{2}\/\d{4}/);
  await expectNoAxeViolations(page, "'Mes demandes'");

  await row.getByRole('button', { name: `Annuler la demande pour ${request.email}` }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Annuler la demande' });
  await expect(dialog).toContainText(`Êtes-vous sûr de vouloir annuler la demande pour ${request.email} ?`);
  // The reason is optional, and has the focus.
  await expect(dialog.getByLabel('Motif (facultatif)')).toBeFocused();
  await page.keyboard.type('La personne a quitté la clinique.');
  await expectNoAxeViolations(page, "the cancellation's confirmation");
  await dialog.getByRole('button', { name: "Confirmer l'annulation" }).click();
  await expect(page.getByText(`La demande pour ${request.email} a été annulée.`).first()).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Annulée');
  await expect(row.getByRole('button', { name: /Annuler/ })).toHaveCount(0);

  // 'Annulée' among the filters; the request is there.
  await page.getByRole('group', { name: 'Filtrer par statut' }).getByRole('button', { name: 'Annulée' }).click();
  await expect(page).toHaveURL(/status=CANCELLED/);
  await expect(page.getByRole('row', { name: new RegExp(escaped(request.email)) })).toBeVisible();

  const backOffice = await backOfficePage(browser);
  await backOffice.goto(`/admin?status=CANCELLED&search=${encodeURIComponent(request.email)}`);
  const listed = backOffice.getByRole('row', { name: new RegExp(escaped(request.email)) });
  await expect(listed).toContainText('Annulée');
  await expect(backOffice.getByRole('group', { name: 'Filtrer par statut' }).getByRole('button', { name: 'Annulée' })).toHaveAttribute('aria-pressed', 'true');
  await expect(listed.getByRole('button', { name: `Approuver la demande de ${request.email}` })).toBeDisabled();
  await expect(listed.getByRole('button', { name: `Rejeter la demande de ${request.email}` })).toBeDisabled();
  await listed.getByRole('button', { name: /Voir/ }).click();
  await expect(backOffice.getByRole('heading', { name: `Invitation #${request.id}`, level: 1 })).toBeVisible();
  const detail = backOffice.locator('dl');
  await expect(detail).toContainText('Annulée par');
  await expect(detail).toContainText('admin.clinique@portail.test');
  await expect(detail).toContainText('La personne a quitté la clinique.');
  await expect(backOffice.getByRole('button', { name: 'Approuver' })).toHaveCount(0);
  await backOffice.context().close();
});

test("the back office sees the demo's expired requests 'Expirée', with the day each expired, and cannot decide them", async ({ browser }) => {
  // The demo seeds a few requests that expired before 01/11/2026 (docs/demo-data.md); its pending ones are recent,
  // so none expired when the server started: the expired ones listed are exactly those seeded.
  const seeded = buildDemoPlan().invitations.filter((i) => i.status === 'EXPIRED');
  expect(seeded.length).toBeGreaterThanOrEqual(2);
  const page = await backOfficePage(browser);
  await page.goto('/admin?status=EXPIRED');
  await expect(page.getByRole('group', { name: 'Filtrer par statut' }).getByRole('button', { name: 'Expirée' })).toHaveAttribute('aria-pressed', 'true');
  const statuses = page.getByRole('row').locator('td:nth-child(5)');
  await expect(statuses).toHaveCount(seeded.length);
  expect(new Set(await statuses.allTextContents())).toEqual(new Set(['Expirée']));
  const expired = seeded.find((i) => i.invitationType === 'ROLE_ASSIGNMENT') ?? seeded[0]!;
  const row = page.getByRole('row', { name: new RegExp(escaped(expired.inviteeEmail)) });
  await expect(row.getByRole('button', { name: `Approuver la demande de ${expired.inviteeEmail}` })).toBeDisabled();
  await expect(row.getByRole('button', { name: `Rejeter la demande de ${expired.inviteeEmail}` })).toBeDisabled();
  await expectNoAxeViolations(page, "/admin, 'Expirée'");
  await row.getByRole('button', { name: /Voir/ }).click();
  await expect(page.getByRole('heading', { name: /^Invitation #\d+$/, level: 1 })).toBeVisible();
  const day = expired.processedAt!.toLocaleDateString('fr-FR', { timeZone: 'Europe/Paris' });
  await expect(page.locator('dl')).toContainText(new RegExp(`Expirée le\\s*${day}`));
  await expect(page.getByRole('button', { name: 'Approuver' })).toHaveCount(0);
  await page.context().close();
});
