import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { createPendingInvitation, createUser, DEMO_PASSWORD, openDashboardAs } from './fixtures';

// WCAG 1.4.10 (reflow): at 320 CSS px wide, and at 200 % zoom, nothing makes the page scroll sideways; a
// table may scroll inside its own frame, as long as its actions stay reachable. Below 640 px the lists are cards
// (issue 18), which never scroll sideways.
const VIEWPORTS = [
  { name: 'a 320 × 640 phone', viewport: { width: 320, height: 640 } },
  // 200 % zoom of a 1280 × 1024 screen lays the page out in 640 × 512 CSS pixels, which is what the browser
  // gets here. deviceScaleFactor is not zoom: it draws the same 1280 CSS px layout with more device pixels.
  { name: '200 % zoom of a 1280 × 1024 screen', viewport: { width: 640, height: 512 } },
];

/** Waits for the screen (its level-1 heading), then checks that the page itself does not scroll sideways. */
async function expectReflow(page: Page, heading: string | RegExp) {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth, `${new URL(page.url()).pathname} scrolls sideways`).toBeLessThanOrEqual(clientWidth);
}

/** The navigation is behind the 'Menu' button of the top bar: open it, follow an entry; the focus lands on the new page. */
async function navigateTo(page: Page, entry: string) {
  await page.getByRole('button', { name: 'Menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Portail Habilitations' });
  await drawer.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: entry }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('main')).toBeFocused();
}

/**
 * A row action of a table too wide for the screen: with the row's first cell in view (the table scrolled to its
 * start), the action is wholly on screen, not clipped by the table's frame; and the frame, a named region,
 * takes the keyboard focus and scrolls with the arrow keys.
 */
async function expectRowActionReachable(page: Page, table: string, row: Locator, action: Locator) {
  const frame = page.getByRole('region', { name: table });
  await expect(frame).toHaveAttribute('tabindex', '0');
  await row.getByRole('cell').first().scrollIntoViewIfNeeded();
  await expect(action).toBeInViewport({ ratio: 1 });
  await frame.focus();
  await page.keyboard.press('ArrowRight');
  await expect(frame).not.toHaveJSProperty('scrollLeft', 0);
  await expect(action).toBeInViewport({ ratio: 1 });
}

/** Below 640 px the lists draw cards instead of tables (issue 18). */
const narrow = (page: Page) => (page.viewportSize()?.width ?? 0) < 640;

/**
 * The one row of a list searched for `email`: a row of its table from 640 px; below, its one card, with the
 * e-mail in full in sight (not cut by a frame) and no table.
 */
async function onlyRow(page: Page, list: string, email: string): Promise<Locator> {
  if (!narrow(page)) {
    await expect(page.getByRole('row')).toHaveCount(2);
    return page.getByRole('row', { name: new RegExp(escaped(email)) });
  }
  const cards = page.getByRole('list', { name: list }).getByRole('listitem');
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText(email);
  await expect(page.getByRole('table')).toHaveCount(0);
  const shown = cards.getByText(email, { exact: true });
  await shown.scrollIntoViewIfNeeded();
  await expect(shown).toBeInViewport({ ratio: 1 });
  return cards;
}

/** A row's action within reach: in its table's frame from 640 px, or wholly on screen in its card below. */
async function expectActionReachable(page: Page, list: string, row: Locator, action: Locator) {
  if (!narrow(page)) return expectRowActionReachable(page, list, row, action);
  await action.scrollIntoViewIfNeeded();
  await expect(action).toBeInViewport({ ratio: 1 });
}

async function signIn(page: Page, email: string) {
  await page.goto('/authentication/sign-in');
  await page.waitForURL(/\/oidc\/interaction\//);
  await expectReflow(page, 'Connexion');
  await page.getByLabel('Adresse email').fill(email);
  await page.getByLabel('Mot de passe').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.waitForURL('**/dashboard');
  await expectReflow(page, 'Accueil');
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`on ${name}`, () => {
    test.use({ viewport });

    test('back office walks every screen without sideways scrolling, through the menu, with the row actions in reach', async ({ page }) => {
      await signIn(page, 'backoffice@portail.test');
      const user = await createUser(page, 'Clinique des Tilleuls', { lastName: 'Reflow' });
      const invitation = await createPendingInvitation(page, 'Clinique des Tilleuls');

      await navigateTo(page, 'Gestion des utilisateurs');
      await page.getByPlaceholder('Rechercher par nom ou email...').fill(user.email);
      const userRow = await onlyRow(page, 'Liste des utilisateurs', user.email);
      await expectReflow(page, 'Gestion des utilisateurs');
      await expectActionReachable(page, 'Liste des utilisateurs', userRow, userRow.getByRole('button', { name: `Modifier ${user.name}` }));

      await userRow.getByRole('button', { name: `Actions pour ${user.name}` }).click();
      await page.getByRole('menuitem', { name: 'Voir le profil' }).click();
      await expectReflow(page, 'Profil utilisateur');
      await page.goBack();
      await userRow.getByRole('button', { name: `Modifier ${user.name}` }).click();
      await expectReflow(page, 'Modifier un utilisateur');
      await page.getByRole('tab', { name: 'SIREN' }).click();
      await expect(page.getByRole('tab', { name: 'SIREN' })).toHaveAttribute('aria-selected', 'true');
      await expectReflow(page, 'Modifier un utilisateur');

      await navigateTo(page, 'Gestion des utilisateurs');
      await page.getByRole('button', { name: 'Ajouter un utilisateur' }).click();
      await expectReflow(page, 'Créer un utilisateur');
      await page.getByRole('textbox', { name: 'Prénom' }).fill('Camille');
      await page.getByRole('textbox', { name: 'Nom', exact: true }).fill('Reflow');
      await page.getByRole('textbox', { name: 'Email' }).fill(`reflow.${Date.now().toString(36)}@exemple-test.fr`);
      await page.getByRole('textbox', { name: 'Fonction' }).fill('Assistante');
      await page.getByRole('textbox', { name: 'Adresse' }).fill('12 rue des Lilas');
      await page.getByRole('textbox', { name: 'Code postal' }).fill('69003');
      await page.getByRole('textbox', { name: 'Ville' }).fill('Lyon');
      await page.getByRole('button', { name: 'Suivant' }).click();
      await expect(page.getByText('Étape 2/4')).toBeVisible();
      // Below 640 px the stepper is 'Étape n/4' alone; the four steps show from 640 px on (issue 18).
      await expect(page.getByRole('list', { name: 'Étapes de la création' })).toBeVisible({ visible: (page.viewportSize()?.width ?? 0) >= 640 });
      await expectReflow(page, 'Créer un utilisateur');
      await page.getByRole('searchbox', { name: 'Rechercher un SIREN' }).fill('Clinique des Tilleuls');
      await page.getByRole('checkbox', { name: /Clinique des Tilleuls/ }).check();
      await page.getByRole('button', { name: 'Suivant' }).click();
      await expect(page.getByText('Étape 3/4')).toBeVisible();
      await expectReflow(page, 'Créer un utilisateur');
      await page.getByRole('checkbox', { name: /Clinique des Tilleuls - Lyon/ }).check();
      await page.getByRole('button', { name: 'Suivant' }).click();
      await expect(page.getByText('Étape 4/4')).toBeVisible();
      await expectReflow(page, 'Créer un utilisateur');

      await navigateTo(page, 'Habilitation des administrateurs');
      await page.getByPlaceholder('Rechercher par email ou SIREN...').fill(invitation.email);
      const invitationRow = await onlyRow(page, 'Liste des demandes administrateur', invitation.email);
      await expectReflow(page, 'Habilitation des administrateurs');
      await expectActionReachable(page, 'Liste des demandes administrateur', invitationRow, invitationRow.getByRole('button', { name: `Approuver la demande de ${invitation.email}` }));
      await invitationRow.getByRole('button', { name: `Voir le détail la demande de ${invitation.email}` }).click();
      await expectReflow(page, `Invitation #${invitation.id}`);

      await page.getByRole('link', { name: 'Retour à la liste' }).click();
      await page.getByRole('button', { name: 'Créer une nouvelle demande' }).click();
      await expectReflow(page, 'Demander un administrateur');
      await page.getByRole('button', { name: 'Choisir un utilisateur existant' }).click();
      await expect(page.getByRole('button', { name: 'Soumettre la demande' })).toBeVisible();
      await expectReflow(page, 'Attribuer le rôle administrateur à un utilisateur existant');

      await navigateTo(page, 'Accueil');
      await expectReflow(page, 'Accueil');
    });

    test('a member administrator sees their users and asks for an administrator without sideways scrolling', async ({ page }) => {
      await signIn(page, 'admin.clinique@portail.test');
      const user = await createUser(page, 'Clinique des Tilleuls', { lastName: 'Adherent' });
      await navigateTo(page, 'Gestion des utilisateurs');
      await page.getByPlaceholder('Rechercher par nom ou email...').fill(user.email);
      const userRow = await onlyRow(page, 'Liste des utilisateurs', user.email);
      await expectReflow(page, /^Gestion des utilisateurs - Clinique des Tilleuls/);
      await expectActionReachable(page, 'Liste des utilisateurs', userRow, userRow.getByRole('button', { name: `Actions pour ${user.name}` }));

      await page.getByRole('button', { name: 'Demander un administrateur' }).click();
      await expectReflow(page, 'Demander un administrateur');
      await page.getByRole('button', { name: 'Créer un compte administrateur' }).click();
      await expectReflow(page, 'Demander un administrateur');
      await expect(page.getByText('Étape 1/4')).toBeVisible();
      await page.goBack();
      await page.getByRole('button', { name: 'Choisir un utilisateur existant' }).click();
      await expectReflow(page, 'Attribuer le rôle administrateur à un utilisateur existant');
    });
  });
}

test.describe('on a 375 × 812 phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the users and requests lists are cards: the e-mail in full, the sort as a select driving the URL, the selection, and axe', async ({ page }) => {
    await openDashboardAs(page, 'backoffice@portail.test');
    const family = `Carte${Date.now().toString(36).replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!)}`;
    const first = await createUser(page, 'Clinique des Tilleuls', { lastName: `${family}Alpha` });
    const second = await createUser(page, 'Clinique des Tilleuls', { lastName: `${family}Bravo` });

    await page.goto(`/utilisateurs?search=${family}`);
    const cards = page.getByRole('list', { name: 'Liste des utilisateurs' }).getByRole('listitem');
    await expect(cards).toHaveCount(2);
    await expect(page.getByRole('table')).toHaveCount(0);
    await expectReflow(page, 'Gestion des utilisateurs');
    for (const [index, person] of [first, second].entries()) {
      const card = cards.nth(index);
      await expect(card.getByRole('heading', { level: 2 })).toHaveText(person.name);
      const email = card.getByText(person.email, { exact: true });
      await email.scrollIntoViewIfNeeded();
      await expect(email).toBeInViewport({ ratio: 1 });
      await expect(card.getByRole('button', { name: `Modifier ${person.name}` })).toBeVisible();
      await expect(card.getByRole('button', { name: `Actions pour ${person.name}` })).toBeVisible();
    }
    // The e-mail is not cut: its line holds the whole of it, wrapped within the card if need be.
    expect(await cards.first().getByText(first.email, { exact: true }).evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await expectNoAxeViolations(page, '/utilisateurs at 375 px, as cards');

    // The sort, which the table's headers do from 640 px: the names the other way round.
    const sort = page.getByRole('combobox', { name: 'Trier par' });
    await expect(sort).toHaveValue('name:asc');
    await sort.selectOption({ label: 'Nom, tri décroissant' });
    await expect(page).toHaveURL(/sort=name/);
    await expect(page).toHaveURL(/order=desc/);
    await expect(cards.first().getByRole('heading')).toHaveText(second.name);
    await expect(cards.nth(1).getByRole('heading')).toHaveText(first.name);

    // The selection, box by box and the page's box above the cards.
    const box = cards.first().getByRole('checkbox', { name: `Sélectionner ${second.name}` });
    await expect(box).toBeEnabled();
    await box.check();
    const toolbar = page.getByRole('region', { name: 'Actions sur la sélection' });
    await expect(toolbar.getByText('1 sélectionné(s)')).toBeVisible();
    await page.getByRole('checkbox', { name: 'Sélectionner les utilisateurs de la page' }).check();
    await expect(toolbar.getByText('2 sélectionné(s)')).toBeVisible();
    await expectReflow(page, 'Gestion des utilisateurs');
    await expectNoAxeViolations(page, '/utilisateurs at 375 px, two cards selected');

    const invitation = await createPendingInvitation(page, 'Clinique des Tilleuls');
    await page.goto(`/admin?search=${encodeURIComponent(invitation.email)}`);
    const request = await onlyRow(page, 'Liste des demandes administrateur', invitation.email);
    await expect(request.getByRole('heading', { level: 2 })).toHaveText(invitation.email);
    await expect(request).toContainText(`#${invitation.id}`);
    await expect(request).toContainText('En attente');
    await expectReflow(page, 'Habilitation des administrateurs');
    await expect(page.getByRole('combobox', { name: 'Trier par' })).toHaveValue('createdAt:desc');
    await page.getByRole('combobox', { name: 'Trier par' }).selectOption({ label: 'Email, tri croissant' });
    await expect(page).toHaveURL(/sort=email/);
    await expect(page).toHaveURL(/order=asc/);
    await expect(request).toBeVisible();
    await expectNoAxeViolations(page, '/admin at 375 px, as cards');
  });
});
