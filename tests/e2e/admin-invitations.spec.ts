import { expect, test, type Page } from '@playwright/test';
import { bearer, createPendingInvitation, sidebar, openDashboardAs } from './fixtures';

async function openAdmin(page: Page) {
  await sidebar(page).getByRole('link', { name: 'Habilitation des administrateurs' }).click();
  await expect(page.getByRole('heading', { name: 'Habilitation des administrateurs', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/Admin OPCO/);
}

async function searchFor(page: Page, text: string) {
  await page.getByPlaceholder('Rechercher par email ou SIREN...').fill(text);
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(text).replace(/\./g, '\\.')}`));
}

test('back office filters, searches, sorts and pages the requests, all kept in the URL', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  await openAdmin(page);
  await expect(page.getByText(/^Affichage 1-10 sur \d+ résultats$/)).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(11);

  await page.getByRole('group', { name: 'Filtrer par statut' }).getByRole('button', { name: 'Refusée' }).click();
  await expect(page).toHaveURL(/status=REJECTED/);
  // Drawn from the new URL (the pressed filter): the previous rows stay on screen, the table busy, until the
  // asked-for ones arrive (keepPreviousData).
  await expect(page.getByRole('group', { name: 'Filtrer par statut' }).getByRole('button', { name: 'Refusée' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('table')).not.toHaveAttribute('aria-busy', 'true');
  const statuses = page.getByRole('row').locator('td:nth-child(5)');
  await expect(statuses.first()).toHaveText('Refusée');
  expect(new Set(await statuses.allTextContents())).toEqual(new Set(['Refusée']));

  await page.getByRole('group', { name: 'Filtrer par statut' }).getByRole('button', { name: 'Tous' }).click();
  await page.getByRole('columnheader', { name: /Email/ }).getByRole('button').click();
  await expect(page).toHaveURL(/sort=email/);
  await expect(page.getByRole('columnheader', { name: /Email/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByRole('table')).not.toHaveAttribute('aria-busy', 'true');
  const emails = await page.getByRole('row').locator('td:nth-child(2)').allTextContents();
  expect(emails).toEqual([...emails].sort((a, b) => a.localeCompare(b)));

  await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText(/^Affichage 11-20 sur \d+ résultats$/)).toBeVisible();
  await page.getByLabel('Résultats par page').selectOption('20');
  await expect(page.getByText(/^Affichage 1-20 sur \d+ résultats$/)).toBeVisible();

  // A reload keeps everything; the back button returns to the previous state.
  await page.reload();
  await expect(page.getByText(/^Affichage 1-20 sur \d+ résultats$/)).toBeVisible();
  await page.goBack();
  await expect(page.getByText(/^Affichage 11-20 sur \d+ résultats$/)).toBeVisible();

  await searchFor(page, 'aucune-demande-ne-correspond');
  await expect(page.getByText('Aucune invitation trouvée')).toBeVisible();
  await expect(page.getByText('Aucun résultat')).toBeVisible();
});

test('back office approves a pending request from the list', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const invitation = await createPendingInvitation(page, 'Clinique des Tilleuls');
  await openAdmin(page);
  await searchFor(page, invitation.email);
  const row = page.getByRole('row', { name: new RegExp(invitation.email.replace(/\./g, '\\.')) });
  await expect(row.getByText('En attente')).toBeVisible();
  await row.getByRole('button', { name: `Approuver la demande de ${invitation.email}` }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Êtes-vous sûr de vouloir approuver cette demande administrateur ?');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirmer' }).click();
  // Radix announces a toast through a live region too: the visible toast is the first match.
  await expect(page.getByText("L'utilisateur a été approuvé avec succès.").first()).toBeVisible();
  await expect(page.getByText(`La demande d'administrateur pour "${invitation.email}" a été approuvée`).first()).toBeVisible();
  await expect(row.getByText('Approuvée')).toBeVisible();
  await expect(row.getByRole('button', { name: /^Approuver/ })).toBeDisabled();
  await expect(row.getByRole('button', { name: /^Rejeter/ })).toBeDisabled();
});

test('back office rejects a request from its detail page, the reason needing 10 characters', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const invitation = await createPendingInvitation(page, 'EHPAD Les Glycines');
  await page.goto(`/admin/${invitation.id}`);
  await expect(page.getByRole('heading', { name: `Invitation #${invitation.id}` })).toBeVisible();
  await expect(page).toHaveTitle(/Détail de l'invitation/);
  await page.getByRole('button', { name: 'Rejeter' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(`Êtes-vous sûr de vouloir rejeter la demande de ${invitation.email} ?`);
  await dialog.getByLabel(/Motif du rejet/).fill('123456789');
  await expect(dialog.getByText('Le motif doit contenir au moins 10 caractères (9/10)')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Confirmer' })).toBeDisabled();
  await dialog.getByLabel(/Motif du rejet/).fill('Pièces manquantes');
  await expect(dialog.getByRole('button', { name: 'Confirmer' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Confirmer' }).click();
  await expect(page.getByText(`La demande pour "${invitation.email}" a été rejetée.`).first()).toBeVisible();
  // Back to the list after 1 s, where the message stays.
  await page.waitForURL((url) => url.pathname === '/admin');
  await expect(page.getByText(`La demande pour "${invitation.email}" a été rejetée.`).first()).toBeVisible();
  // The decided request shows no buttons, and its reason.
  await page.goto(`/admin/${invitation.id}`);
  await expect(page.getByText('Refusée')).toBeVisible();
  await expect(page.getByText('Pièces manquantes')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approuver' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Rejeter' })).toHaveCount(0);
});

test('a decision on a request decided meanwhile elsewhere fails with the §8 message and changes nothing', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const invitation = await createPendingInvitation(page, 'Clinique des Tilleuls');
  await page.goto(`/admin/${invitation.id}`);
  await expect(page.getByRole('button', { name: 'Approuver' })).toBeVisible();
  // Another person rejects it through the API while this page is open.
  const answer = await page.request.post(`/api/v2/invitations/${invitation.id}/reject`, {
    headers: { Authorization: `Bearer ${await bearer(page)}` },
    data: { rejectionReason: 'Rejetée depuis un autre onglet' },
  });
  expect(answer.status()).toBe(200);
  await page.getByRole('button', { name: 'Approuver' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirmer' }).click();
  await expect(page.getByRole('alert').filter({ hasText: "Erreur lors de l'approbation." })).toBeVisible();
  await expect(page.getByText('Refusée')).toBeVisible();
  await expect(page.getByText('Rejetée depuis un autre onglet')).toBeVisible();
});

test('the read-only back office sees Approuver and Rejeter disabled with the reason, in the list and on the detail, and no Créer une nouvelle demande', async ({ page }) => {
  // A pending request of this test's own (others decide theirs meanwhile, in other workers).
  await openDashboardAs(page, 'backoffice@portail.test');
  const invitation = await createPendingInvitation(page, 'Clinique des Tilleuls');
  await openDashboardAs(page, 'lecteur@portail.test');
  await openAdmin(page);
  // Nor is a new request offered: /admin-actions needs USER_CREATE.
  await expect(page.getByRole('button', { name: 'Créer une nouvelle demande' })).toHaveCount(0);
  await page.getByRole('group', { name: 'Filtrer par statut' }).getByRole('button', { name: 'En attente' }).click();
  await expect(page).toHaveURL(/status=PENDING/);
  await searchFor(page, invitation.email);
  await expect(page.getByRole('row')).toHaveCount(2);
  const approve = page.getByRole('button', { name: /^Approuver la demande/ }).first();
  await expect(approve).toHaveAttribute('aria-disabled', 'true');
  await approve.focus();
  await expect(page.getByRole('tooltip')).toContainText("Vous n'avez pas le droit d'approuver cette demande.");
  await expect(page.getByRole('button', { name: /^Rejeter la demande/ }).first()).toHaveAttribute('aria-disabled', 'true');
  // Pressed anyway (it stays in the Tab order): nothing opens.
  await approve.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await page.getByRole('button', { name: /^Voir le détail/ }).first().click();
  const reject = page.getByRole('button', { name: 'Rejeter', exact: true });
  await expect(reject).toHaveAttribute('aria-disabled', 'true');
  await reject.focus();
  await expect(page.getByRole('tooltip')).toContainText("Vous n'avez pas le droit de rejeter cette demande.");
});

test('an unknown request number says so', async ({ page }) => {
  await openDashboardAs(page, 'lecteur@portail.test');
  await page.goto('/admin/999999');
  await expect(page.getByRole('heading', { name: 'Introuvable' })).toBeVisible();
  await expect(page.getByText('Aucune invitation trouvée.')).toBeVisible();
});

test('an organization user who types /admin is sent to the dashboard, and no request for the invitations leaves (issue 18)', async ({ page }) => {
  await openDashboardAs(page, 'admin.clinique@portail.test');
  const asked: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname === '/api/v2/invitations' || /\/assets\/admin\.lazy-[\w-]+\.js$/.test(pathname)) asked.push(`${request.method()} ${pathname}`);
  });
  // A first load: the session is not known yet, the render-time guard decides once it is.
  await page.goto('/admin');
  await page.waitForURL('**/dashboard');
  await expect(page.getByRole('heading', { name: 'Accueil', level: 1 })).toBeVisible();
  expect(asked.filter((r) => r.startsWith('GET /api/v2/invitations'))).toEqual([]);

  // Within the app, the session known: the router refuses before anything of /admin loads, its code included.
  asked.length = 0;
  await page.evaluate(() => {
    window.history.pushState(null, '', '/admin');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await page.waitForURL('**/dashboard');
  await expect(page.getByRole('heading', { name: 'Accueil', level: 1 })).toBeVisible();
  expect(asked).toEqual([]);
});
