import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { bearer, createPendingInvitation, createUser, fillWizardDetails, sidebar, signIn, signInAsInactive, openDashboardAs } from './fixtures';

/**
 * The accessibility gate of issue 10: axe-core (WCAG 2.1 A and AA) on every screen and state, as each persona
 * that reaches it, plus what axe cannot judge: the language, a title per screen, one main landmark, a skip link.
 * Failures are soft: each walk goes to its end and reports every screen that fails.
 */

// Each test walks many screens and runs axe on each state: longer than a single-screen test.
test.describe.configure({ timeout: 120_000 });

const APP = 'Portail Habilitations';
const titled = (screen: string) => `${screen} · ${APP}`;

/** The first element a Tab press reaches, and whether it is a link to the main landmark. */
async function firstTabStop(page: Page) {
  return page.evaluate(() => {
    const focusable = document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [tabindex]');
    const first = [...focusable].find((el) => el.tabIndex >= 0 && !el.matches(':disabled') && el.getClientRects().length > 0);
    const href = first?.getAttribute('href') ?? '';
    const target = href.startsWith('#') ? document.getElementById(href.slice(1)) : null;
    return { text: first?.textContent?.trim() ?? null, skipsToMain: target !== null && target === document.querySelector('main') };
  });
}

/** A new screen: what axe cannot judge, then axe. */
async function checkScreen(page: Page, where: string, title: string) {
  await expect.soft(page.locator('html'), `${where}: language`).toHaveAttribute('lang', 'fr');
  await expect.soft(page, `${where}: title`).toHaveTitle(title);
  await expect.soft(page.getByRole('main'), `${where}: one main landmark`).toHaveCount(1);
  expect.soft(await firstTabStop(page), `${where}: skip link first`).toEqual({ text: 'Aller au contenu', skipsToMain: true });
  await expectNoAxeViolations(page, where);
}

const checkState = expectNoAxeViolations;

/** Holds the requests matching `pattern` until released: the real server answers them afterwards. */
async function hold(page: Page, pattern: string | RegExp) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await gate;
    await route.continue().catch(() => undefined);
  });
  return async () => {
    release();
    await page.unroute(pattern);
  };
}

/** Runs `act` with the answers to `pattern` held, checks the page once `shown` is on screen, then lets them through. */
async function checkWhileHeld(page: Page, pattern: string | RegExp, act: () => Promise<unknown>, shown: string, check: () => Promise<void>) {
  const release = await hold(page, pattern);
  await act();
  await expect(page.getByText(shown)).toBeVisible();
  await check();
  await release();
}

/** Fails the requests matching `pattern` as a network failure does, until the returned function is called. */
async function cut(page: Page, pattern: string | RegExp, method = 'GET') {
  await page.route(pattern, (route) => (route.request().method() === method ? route.abort('failed') : route.fallback()));
  return () => page.unroute(pattern);
}

/** A toast stays while the pointer is over it (Radix pauses its timer), long enough for axe. */
async function holdToast(page: Page, text: string): Promise<void> {
  const toast = page.getByRole('status').filter({ hasText: text }).or(page.getByRole('listitem').filter({ hasText: text })).first();
  await expect(toast).toBeVisible();
  await toast.hover();
}

const letters = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!);

async function searchUsers(page: Page, text: string) {
  await page.getByPlaceholder('Rechercher par nom ou email...').fill(text);
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(text).replace(/\./g, '\\.')}`));
}

async function searchInvitations(page: Page, text: string) {
  await page.getByPlaceholder('Rechercher par email ou SIREN...').fill(text);
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(text).replace(/\./g, '\\.')}`));
}

async function newPage(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, ignoreHTTPSErrors: true, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  return context.newPage();
}

const stepHeading = (page: Page, name: string) => page.getByRole('heading', { name, level: 2 });

test('public pages: the local sign-in blank and refused, the return from it, the 404 page, the landing page after an inactive account', async ({ page }) => {
  // (/authentication/sign-in shows the same status page as /authentication/redirect-login, checked below, for
  // 1 s before the browser leaves for the provider: axe cannot run on a page whose navigation is under way.)
  await page.goto('/authentication/sign-in');
  await page.waitForURL(/\/oidc\/interaction\//);
  await expect(page.getByLabel('Mot de passe')).toBeVisible();
  await checkScreen(page, 'the local sign-in page', titled('Connexion'));

  // An address of its own: the wrong passwords of other tests do not add up to the provider's throttle on it.
  await signIn(page, 'inconnu.axe@portail.test', 'mauvais-mot-de-passe');
  await expect(page.getByRole('alert')).toHaveText('Adresse email ou mot de passe incorrect.');
  await checkScreen(page, 'the local sign-in page after a wrong password', titled('Connexion'));

  // The portal's return from the provider, held while it asks for the token.
  const releaseToken = await hold(page, /\/oidc\/token$/);
  await signIn(page, 'lecteur@portail.test');
  await page.waitForURL('**/authentication/redirect-login**');
  await expect(page.getByRole('heading', { name: 'Connexion en cours...' })).toBeVisible();
  await checkScreen(page, '/authentication/redirect-login', titled('Connexion en cours...'));
  await releaseToken();
  await page.waitForURL('**/dashboard');
  await page.context().clearCookies();

  await page.goto('/cette-page-nexiste-pas');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await checkScreen(page, 'the 404 page', titled('Oops! Page not found'));

  // The inactive account: the browser's own alert (not in the page), then the sign-out and the landing page.
  await signInAsInactive(page);
  await checkScreen(page, 'the landing page after an inactive account', titled(APP));
});

test("issue 23's screens: the accessibility statement signed out, 'Durées de conservation' as the back office", async ({ page }) => {
  await page.goto('/accessibilite');
  await expect(page.getByRole('heading', { name: "Déclaration d'accessibilité", level: 1 })).toBeVisible();
  await checkScreen(page, '/accessibilite signed out', titled("Déclaration d'accessibilité"));

  await openDashboardAs(page, 'backoffice@portail.test');
  await page.goto('/conservation');
  await expect(page.getByRole('table', { name: 'Durées de conservation des données du portail' })).toBeVisible();
  await checkScreen(page, '/conservation', titled('Durées de conservation'));
});

test('back office, users list: dashboard and sidebar, the list loading, loaded, its tooltip, menu, confirmations, toasts, a failure, empty', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  await checkScreen(page, '/dashboard', titled('Accueil'));
  await page.getByRole('button', { name: 'Réduire le menu' }).click();
  await expect(page.getByRole('button', { name: 'Déplier le menu' })).toBeVisible();
  await checkState(page, '/dashboard, sidebar collapsed');
  await sidebar(page).getByRole('button', { name: 'Mon profil' }).click();
  await expect(page.getByText('USER_DELETE')).toBeVisible();
  // Issue 23: one's own data on request, loaded with the panel.
  await expect(sidebar(page).getByRole('heading', { name: 'Données personnelles', level: 3 })).toBeVisible();
  await checkState(page, "/dashboard, 'Mon profil' open");

  const user = await createUser(page, 'Clinique des Tilleuls', { lastName: `Axe${letters()}`, roleCodes: ['COMPTABLE', 'ADHESION'] });

  // /utilisateurs: loading, loaded, the '+n' tooltip, the row menu, the confirmations, the toasts, an error, empty.
  await checkWhileHeld(page, /\/api\/v2\/users\?/, () => sidebar(page).getByRole('link', { name: 'Gestion des utilisateurs' }).click(), 'Chargement des utilisateurs...', () =>
    checkScreen(page, '/utilisateurs loading', titled('Gestion des utilisateurs')),
  );
  await expect(page.getByRole('table')).toBeVisible();
  await checkState(page, '/utilisateurs loaded');
  const sirenFilter = page.getByRole('combobox', { name: 'SIREN', exact: true });
  await sirenFilter.fill('Clinique');
  await expect(page.getByRole('option', { name: /Clinique des Tilleuls/ })).toBeVisible();
  // The server's answer is in (not only the list narrowed while it comes): nothing moves while axe reads.
  await expect(page.getByRole('status').filter({ hasText: /option\(s\) disponible\(s\)/ })).toBeVisible();
  await checkState(page, '/utilisateurs, the SIREN filter open on a search');
  await sirenFilter.press('Escape');
  await expect(page.getByRole('listbox')).toBeHidden();

  await searchUsers(page, user.email);
  const row = page.getByRole('row').filter({ hasText: user.email });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /autre\(s\) rôle\(s\)/ }).focus();
  await expect(page.getByRole('tooltip')).toBeVisible();
  await checkState(page, "/utilisateurs, the '+n' roles tooltip");

  await row.getByRole('button', { name: `Actions pour ${user.name}` }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await checkState(page, '/utilisateurs, the row menu open');
  await page.getByRole('menuitem', { name: 'Désactiver' }).click();
  await expect(page.getByRole('alertdialog')).toContainText(`Êtes-vous sûr de vouloir désactiver ${user.name} ?`);
  await checkState(page, '/utilisateurs, the deactivate confirmation');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirmer' }).click();
  await holdToast(page, `"${user.name}" a été désactivé avec succès.`);
  await checkState(page, '/utilisateurs, the toast after deactivating');
  // Not the colour alone: the inactive user's icon says it in words, visibly.
  await expect(row.getByRole('img', { name: 'Utilisateur désactivé' })).toHaveText('Utilisateur désactivé');
  await expect(row.getByRole('img', { name: 'Utilisateur désactivé' })).toBeVisible();
  await checkState(page, '/utilisateurs, an inactive user');

  const restore = await cut(page, `**/api/v2/users/${user.id}/reactivate`, 'POST');
  await row.getByRole('button', { name: `Actions pour ${user.name}` }).click();
  await page.getByRole('menuitem', { name: 'Activer' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirmer' }).click();
  await holdToast(page, 'Erreur serveur.');
  await expect(page.getByRole('alertdialog')).toBeHidden();
  await checkState(page, '/utilisateurs, a reactivation failing on the network');
  await restore();

  await row.getByRole('button', { name: `Actions pour ${user.name}` }).click();
  await page.getByRole('menuitem', { name: 'Supprimer définitivement' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('irréversible');
  await checkState(page, '/utilisateurs, the permanent-delete confirmation');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Annuler' }).click();

  await searchUsers(page, 'personne-inexistante-axe');
  await expect(page.getByText('Aucun utilisateur trouvé')).toBeVisible();
  await checkState(page, '/utilisateurs, an empty search');
});

test('back office, one user: profile, the four edit tabs and a failed save, the creation wizard', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const user = await createUser(page, 'Clinique des Tilleuls', { lastName: `Axe${letters()}`, roleCodes: ['COMPTABLE', 'ADHESION'] });

  // /utilisateurs/{id}: loading, loaded, unknown.
  await checkWhileHeld(page, `**/api/v2/users/${user.id}`, () => page.goto(`/utilisateurs/${user.id}`), 'Chargement du profil utilisateur...', () =>
    checkScreen(page, '/utilisateurs/{id} loading', titled('Profil utilisateur')),
  );
  await expect(page.getByRole('heading', { name: 'Profil utilisateur', level: 1 })).toBeVisible();
  await expect(page.getByText(user.email, { exact: true })).toBeVisible();
  // Issue 23: the person's data on request, for the back office.
  await expect(page.getByRole('heading', { name: 'Données personnelles', level: 2 })).toBeVisible();
  await checkScreen(page, '/utilisateurs/{id}', titled('Profil utilisateur'));
  await page.goto('/utilisateurs/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('Utilisateur introuvable')).toBeVisible();
  await checkScreen(page, '/utilisateurs/{unknown id}', titled('Profil utilisateur'));

  // /utilisateurs/edit/{id}: the four tabs, a SIREN without SIRET, a failed save, a failed load.
  await checkWhileHeld(page, `**/api/v2/users/${user.id}/full-details`, () => page.goto(`/utilisateurs/edit/${user.id}`), "Chargement de l'utilisateur...", () =>
    checkScreen(page, '/utilisateurs/edit/{id} loading', titled('Modifier un utilisateur')),
  );
  await expect(page.getByLabel('Fonction')).toHaveValue('Assistante');
  await checkScreen(page, '/utilisateurs/edit/{id}, Détails Personnels', titled('Modifier un utilisateur'));
  await page.getByRole('tab', { name: 'SIREN' }).click();
  await page.getByRole('searchbox', { name: 'Rechercher un SIREN' }).fill('Glycines');
  await page.getByRole('checkbox', { name: /EHPAD Les Glycines/ }).check();
  await checkState(page, '/utilisateurs/edit/{id}, SIREN tab');
  await page.getByRole('tab', { name: 'Rôles' }).focus();
  await expect(page.getByRole('tooltip')).toHaveText('Sélectionnez au moins un SIRET pour chaque SIREN choisi');
  await checkState(page, "/utilisateurs/edit/{id}, a blocked tab's tooltip");
  await page.getByRole('tab', { name: 'SIRET' }).click();
  await expect(page.getByText('Aucun SIRET sélectionné pour ce SIREN.')).toBeVisible();
  await checkState(page, '/utilisateurs/edit/{id}, SIRET tab with a SIREN lacking its SIRET');
  await page.getByRole('checkbox', { name: /EHPAD Les Glycines - / }).first().check();
  await page.getByRole('tab', { name: 'Rôles' }).click();
  await expect(page.getByText(/rôle\(s\) sélectionné\(s\)/)).toBeVisible();
  await checkState(page, '/utilisateurs/edit/{id}, Rôles tab');
  const restoreSave = await cut(page, `**/api/v2/users/${user.id}/complete`, 'PUT');
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'La mise à jour a échoué.' })).toBeVisible();
  await checkState(page, '/utilisateurs/edit/{id}, a failed save');
  await restoreSave();

  // /utilisateurs/creer: the four steps, a field error, the overlay, the toast.
  await page.goto('/utilisateurs/creer');
  await expect(page.getByText('Étape 1/4')).toBeVisible();
  await checkScreen(page, '/utilisateurs/creer, step 1', titled('Créer un utilisateur'));
  await page.getByRole('textbox', { name: 'Email' }).fill('pas-une-adresse');
  await page.getByRole('textbox', { name: 'Email' }).blur();
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveAttribute('aria-invalid', 'true');
  await checkState(page, '/utilisateurs/creer, step 1 with a field error');
  const person = { lastName: `Axe${letters()}`, email: `e2e.axe.${letters()}@exemple-test.fr` };
  await fillWizardDetails(page, person);
  await page.getByRole('button', { name: 'Suivant' }).click();
  await expect(stepHeading(page, 'Sélectionnez un ou plusieurs SIREN')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Rechercher un SIREN' }).fill('Clinique des Tilleuls');
  await page.getByRole('checkbox', { name: /Clinique des Tilleuls/ }).check();
  await checkState(page, '/utilisateurs/creer, step 2');
  await page.getByRole('button', { name: 'Suivant' }).click();
  await expect(stepHeading(page, 'Sélectionnez les SIRET où attribuer des rôles')).toBeVisible();
  await checkState(page, '/utilisateurs/creer, step 3 with its block shown');
  await page.getByRole('checkbox', { name: /Clinique des Tilleuls - Lyon/ }).check();
  await page.getByRole('button', { name: 'Suivant' }).click();
  await expect(stepHeading(page, 'Rôles')).toBeVisible();
  await checkState(page, '/utilisateurs/creer, step 4');
  await page.getByRole('checkbox', { name: 'Comptable', exact: true }).check();
  await checkWhileHeld(page, '**/api/v2/users/complete', () => page.getByRole('button', { name: 'Créer Utilisateur' }).click(), "Création de l'utilisateur en cours...", () =>
    checkState(page, '/utilisateurs/creer, the submitting overlay'),
  );
  await holdToast(page, 'Utilisateur créé avec succès.');
  await checkState(page, '/utilisateurs, the toast after a creation');
});

test('back office, administrator requests: /admin loading, loaded, empty, its dialogs, toasts and a failure; a request in detail', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  const approved = await createPendingInvitation(page, 'Clinique des Tilleuls');
  const refused = await createPendingInvitation(page, 'EHPAD Les Glycines');
  const detailed = await createPendingInvitation(page, 'Clinique des Tilleuls');

  await checkWhileHeld(page, /\/api\/v2\/invitations\?/, () => sidebar(page).getByRole('link', { name: 'Habilitation des administrateurs' }).click(), 'Chargement des invitations...', () =>
    checkScreen(page, '/admin loading', titled('Admin OPCO')),
  );
  await expect(page.getByRole('table')).toBeVisible();
  // Not the colour alone: every status badge says its status.
  const statuses = page.getByRole('row').locator('td:nth-child(5)');
  await expect(statuses.first()).toBeVisible();
  for (const status of await statuses.allTextContents()) expect(['En attente', 'Approuvée', 'Refusée', 'Expirée', 'Annulée']).toContain(status);
  await checkState(page, '/admin loaded');
  await searchInvitations(page, 'aucune-demande-axe');
  await expect(page.getByText('Aucune invitation trouvée')).toBeVisible();
  await checkState(page, '/admin, an empty search');

  await searchInvitations(page, approved.email);
  await page.getByRole('button', { name: `Approuver la demande de ${approved.email}` }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Êtes-vous sûr de vouloir approuver cette demande administrateur ?');
  await checkState(page, '/admin, the approve confirmation');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirmer' }).click();
  await holdToast(page, "L'utilisateur a été approuvé avec succès.");
  await checkState(page, '/admin, the toast after approving');

  await searchInvitations(page, refused.email);
  await page.getByRole('button', { name: `Rejeter la demande de ${refused.email}` }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByLabel(/Motif du rejet/).fill('trop court');
  await dialog.getByLabel(/Motif du rejet/).fill('court');
  await expect(dialog.getByText('Le motif doit contenir au moins 10 caractères (5/10)')).toBeVisible();
  await checkState(page, '/admin, the reject dialog with a too-short reason');
  const restoreReject = await cut(page, `**/api/v2/invitations/${refused.id}/reject`, 'POST');
  await dialog.getByLabel(/Motif du rejet/).fill('Pièces manquantes');
  await dialog.getByRole('button', { name: 'Confirmer' }).click();
  await holdToast(page, `Erreur lors du rejet de "${refused.email}"`);
  await checkState(page, '/admin, a rejection failing on the network');
  await restoreReject();

  // /admin/{id}: pending, the overlay while deciding, decided, unknown.
  await page.goto(`/admin/${detailed.id}`);
  await expect(page.getByRole('heading', { name: `Invitation #${detailed.id}` })).toBeVisible();
  await checkScreen(page, '/admin/{id} pending', titled("Détail de l'invitation"));
  const approve = async () => {
    await page.getByRole('button', { name: 'Approuver' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirmer' }).click();
  };
  await checkWhileHeld(page, `**/api/v2/invitations/${detailed.id}/approve`, approve, 'Traitement en cours...', () => checkState(page, '/admin/{id}, the processing overlay'));
  await page.waitForURL((url) => url.pathname === '/admin');

  const headers = { Authorization: `Bearer ${await bearer(page)}` };
  const rejected = (await (await page.request.get('/api/v2/invitations?status=rejected&page=1&pageSize=1', { headers })).json()).invitations[0];
  await page.goto(`/admin/${rejected.id}`);
  await expect(page.getByText('Refusée')).toBeVisible();
  await checkScreen(page, '/admin/{id} rejected', titled("Détail de l'invitation"));
  await page.goto('/admin/999999');
  await expect(page.getByRole('heading', { name: 'Introuvable' })).toBeVisible();
  await checkScreen(page, '/admin/{unknown id}', titled("Détail de l'invitation"));
});

test('back office: the chooser, assign-existing, the developer pages', async ({ page }) => {
  await openDashboardAs(page, 'backoffice@portail.test');
  await page.goto('/admin-actions');
  await expect(page.getByRole('heading', { name: 'Demander un administrateur', level: 1 })).toBeVisible();
  await checkScreen(page, '/admin-actions', titled('Nouvelle demande administrateur'));
  await page.getByRole('button', { name: 'Choisir un utilisateur existant' }).click();
  const candidates = page.getByRole('list', { name: 'Utilisateurs' });
  await expect(candidates.getByRole('button').first()).toBeVisible();
  await checkScreen(page, '/admin-actions/assign-existing', titled('Attribuer le rôle administrateur'));
  await candidates.getByRole('button', { disabled: false }).first().click();
  await expect(page.getByText('Utilisateur sélectionné')).toBeVisible();
  await checkState(page, '/admin-actions/assign-existing, a user selected');
  await page.getByRole('button', { name: "Changer d'utilisateur" }).click();
  await searchUsers(page, 'personne-inexistante-axe');
  await expect(page.getByText('Aucun utilisateur trouvé pour la recherche "personne-inexistante-axe"')).toBeVisible();
  await checkState(page, '/admin-actions/assign-existing, an empty search');

  await page.goto('/test-v2-api');
  await page.getByRole('button', { name: 'Lancer les vérifications' }).click();
  await expect(page.getByText('Succès').first()).toBeVisible();
  await checkScreen(page, '/test-v2-api after the checks', titled("Test de l'API v2"));

  await page.goto('/workflows');
  await expect(page.getByRole('region', { name: 'Session et connexion' }).locator('svg').first()).toBeVisible();
  // Issue 24: the request lifecycle's figures, on its chart and in the tables beside it.
  const lifecycle = page.getByRole('region', { name: "Cycle de vie d'une demande (serveur)" });
  await expect(lifecycle.getByRole('table', { name: /^Transitions des 30 derniers jours/ })).toBeVisible();
  await expect(lifecycle.getByRole('img').locator('svg')).toContainText('actuellement');
  const accounts = page.getByRole('region', { name: "Cycle de vie d'un compte (serveur)" });
  await expect(accounts.getByRole('table', { name: /^Transitions des 30 derniers jours/ })).toBeVisible();
  await expect(accounts.getByRole('img').locator('svg')).toContainText('account.signIn · ');
  await checkScreen(page, '/workflows', titled('Workflows'));
});

test('read-only back office: /utilisateurs and /admin', async ({ page }) => {
  await openDashboardAs(page, 'lecteur@portail.test');
  await checkScreen(page, '/dashboard', titled('Accueil'));
  await page.goto('/utilisateurs');
  await expect(page.getByRole('table')).toBeVisible();
  await checkScreen(page, '/utilisateurs', titled('Gestion des utilisateurs'));
  await page.getByRole('button', { name: /^Actions pour/ }).first().click();
  await expect(page.getByRole('menu')).toBeVisible();
  await checkState(page, '/utilisateurs, the row menu open');
  await page.keyboard.press('Escape');
  await page.goto('/admin');
  await expect(page.getByRole('table')).toBeVisible();
  await checkScreen(page, '/admin', titled('Admin OPCO'));

  // The profile cannot be loaded (§8): the shell says so, over the cached profile.
  const restore = await cut(page, '**/api/v2/users/me');
  await page.reload();
  await expect(page.getByRole('alert').filter({ hasText: '(Using cached data)' })).toBeVisible();
  await checkScreen(page, '/admin, the profile unreachable', titled('Admin OPCO'));
  await restore();
});

test('employer administrator: /utilisateurs, the chooser, the wizard in administrator mode, assign-existing', async ({ page }) => {
  await openDashboardAs(page, 'admin.clinique@portail.test');
  await checkScreen(page, '/dashboard', titled('Accueil'));
  await page.goto('/utilisateurs');
  await expect(page.getByRole('table')).toBeVisible();
  await checkScreen(page, '/utilisateurs', titled('Gestion des utilisateurs - Clinique des Tilleuls'));

  await page.getByRole('button', { name: 'Demander un administrateur' }).click();
  await expect(page.getByRole('heading', { name: 'Demander un administrateur', level: 1 })).toBeVisible();
  await checkScreen(page, '/admin-actions', titled('Nouvelle demande administrateur'));
  await page.getByRole('button', { name: 'Créer un compte administrateur' }).click();
  await expect(page.getByText('Étape 1/4')).toBeVisible();
  await checkScreen(page, '/utilisateurs/creer?admin, step 1', titled('Demander un administrateur'));
  await fillWizardDetails(page, { lastName: `Axe${letters()}`, email: `e2e.axe.${letters()}@exemple-test.fr` });
  await page.getByRole('button', { name: 'Suivant' }).click();
  await expect(page.getByRole('radio', { name: /Clinique des Tilleuls/ })).toBeChecked();
  await checkState(page, '/utilisateurs/creer?admin, step 2');
  await page.getByRole('button', { name: 'Suivant' }).click();
  await expect(page.getByText("Demande d'administrateur : tous les SIRET de ce SIREN sont sélectionnés automatiquement.")).toBeVisible();
  await checkState(page, '/utilisateurs/creer?admin, step 3');
  await page.getByRole('button', { name: 'Suivant' }).click();
  await expect(page.getByRole('checkbox', { name: /Admin Adhérent/ })).toBeChecked();
  await checkState(page, '/utilisateurs/creer?admin, step 4');

  await page.goto('/admin-actions/assign-existing');
  await expect(page.getByRole('list', { name: 'Utilisateurs' }).getByRole('button').first()).toBeVisible();
  await checkScreen(page, '/admin-actions/assign-existing', titled('Attribuer le rôle administrateur'));
});

test('employer HR and another employer administrator: dashboard and /utilisateurs', async ({ page, browser, baseURL }) => {
  await openDashboardAs(page, 'rh.clinique@portail.test');
  await checkScreen(page, '/dashboard (rh.clinique)', titled('Accueil'));
  await page.goto('/utilisateurs');
  await expect(page.getByText('Aucun utilisateur trouvé')).toBeVisible();
  await checkScreen(page, '/utilisateurs (rh.clinique)', titled('Gestion des utilisateurs'));

  const other = await newPage(browser, baseURL);
  await openDashboardAs(other, 'admin.ehpad@portail.test');
  await checkScreen(other, '/dashboard (admin.ehpad)', titled('Accueil'));
  await other.goto('/utilisateurs');
  await expect(other.getByRole('table')).toBeVisible();
  await checkScreen(other, '/utilisateurs (admin.ehpad)', titled('Gestion des utilisateurs - EHPAD Les Glycines'));
  await other.context().close();
});

test('back office on a 320 px wide screen (a phone, or 400 % zoom): the menu drawer, the lists as cards, a form, a detail', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await openDashboardAs(page, 'backoffice@portail.test');
  await checkScreen(page, '/dashboard at 320 px', titled('Accueil'));
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await expect(page.getByRole('dialog', { name: APP })).toBeVisible();
  await checkState(page, '/dashboard at 320 px, the menu drawer open');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // Below 640 px the lists are cards (issue 18).
  await page.goto('/utilisateurs');
  await expect(page.getByRole('list', { name: 'Liste des utilisateurs' }).getByRole('listitem').first()).toBeVisible();
  await checkScreen(page, '/utilisateurs at 320 px', titled('Gestion des utilisateurs'));
  await page.goto('/admin');
  await expect(page.getByRole('list', { name: 'Liste des demandes administrateur' }).getByRole('listitem').first()).toBeVisible();
  await checkScreen(page, '/admin at 320 px', titled('Admin OPCO'));
  const invitation = await createPendingInvitation(page, 'EHPAD Les Glycines');
  await page.goto(`/admin/${invitation.id}`);
  await expect(page.getByRole('heading', { name: `Invitation #${invitation.id}` })).toBeVisible();
  await checkScreen(page, '/admin/{id} at 320 px', titled("Détail de l'invitation"));
  await page.goto('/utilisateurs/creer');
  await expect(page.getByText('Étape 1/4')).toBeVisible();
  await checkScreen(page, '/utilisateurs/creer at 320 px', titled('Créer un utilisateur'));
  await page.goto('/admin-actions/assign-existing');
  await expect(page.getByRole('list', { name: 'Utilisateurs' }).getByRole('button').first()).toBeVisible();
  await checkScreen(page, '/admin-actions/assign-existing at 320 px', titled('Attribuer le rôle administrateur'));
});
