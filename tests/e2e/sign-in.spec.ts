import { expect, test } from '@playwright/test';
import { openDashboardAs, sidebar, signIn, signInAsInactive, signInToDashboard } from './fixtures';

const personas = [
  { email: 'backoffice@portail.test', entries: ['Accueil', 'Habilitation des administrateurs', 'Gestion des utilisateurs', 'Journal des modifications', 'Durées de conservation', 'Mon profil', 'Déconnexion'] },
  { email: 'lecteur@portail.test', entries: ['Accueil', 'Habilitation des administrateurs', 'Gestion des utilisateurs', 'Journal des modifications', 'Durées de conservation', 'Mon profil', 'Déconnexion'] },
  { email: 'admin.clinique@portail.test', entries: ['Accueil', 'Gestion des utilisateurs', 'Journal des modifications', 'Mon profil', 'Déconnexion'] },
  { email: 'rh.clinique@portail.test', entries: ['Accueil', 'Mon profil', 'Déconnexion'] },
  { email: 'admin.ehpad@portail.test', entries: ['Accueil', 'Gestion des utilisateurs', 'Journal des modifications', 'Mon profil', 'Déconnexion'] },
];

for (const persona of personas) {
  test(`${persona.email} signs in through the local provider and sees their sidebar entries`, async ({ page }) => {
    await signInToDashboard(page, persona.email);
    await expect(page.getByText(/^Bonjour \S+/)).toBeVisible();
    await expect(page.getByTestId('sidebar-email')).toHaveText(persona.email);
    const entries = sidebar(page).locator(':scope > ul > li > :is(a, button)');
    await expect(entries).toHaveText(persona.entries);
    await expect(page.getByRole('link', { name: /Espace Adhérent \/ Webservices/ }).first()).toBeVisible();
  });
}

test('the token cookie is written for 12 hours, Secure and SameSite=Lax', async ({ page, context }) => {
  await signInToDashboard(page, 'backoffice@portail.test');
  const cookie = (await context.cookies()).find((c) => c.name === 'portail.accessToken');
  expect(cookie, 'portail.accessToken cookie').toBeDefined();
  expect(cookie?.secure).toBe(true);
  expect(cookie?.sameSite).toBe('Lax');
  expect(cookie?.path).toBe('/');
  const hoursLeft = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 3_600_000;
  expect(hoursLeft).toBeGreaterThan(11.9);
  expect(hoursLeft).toBeLessThanOrEqual(12);
  // The cookie carries the ID token the API accepts.
  const answer = await page.request.get('/api/v2/users/me', { headers: { Authorization: `Bearer ${cookie?.value}` } });
  expect(answer.status()).toBe(200);
  expect((await answer.json()).email).toBe('backoffice@portail.test');
});

test('an inactive account is told it is disabled and signed out', async ({ page, context }) => {
  await signInAsInactive(page);
  expect((await context.cookies()).find((c) => c.name === 'portail.accessToken')).toBeUndefined();
});

test('sign-out empties the storage, expires the cookie and ends the provider session', async ({ page, context }) => {
  await signInToDashboard(page, 'admin.clinique@portail.test');
  await sidebar(page).getByRole('link', { name: 'Déconnexion' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  expect((await context.cookies()).find((c) => c.name === 'portail.accessToken')).toBeUndefined();
  // The landing page starts the sign-in library again (it writes its own settings), but nothing of the session is left.
  const stored = await page.evaluate(() => [...Object.entries(window.localStorage), ...Object.entries(window.sessionStorage)].map(([k, v]) => `${k}=${v}`));
  expect(stored.filter((entry) => /idtoken|accesstoken|refreshtoken|account|portail\.profile|backoffice|admin\.clinique/i.test(entry))).toEqual([]);
  // The provider's session is over too: a protected page asks for the password again.
  await page.goto('/dashboard');
  await page.waitForURL(/\/oidc\/interaction\//);
  await expect(page.getByLabel('Mot de passe')).toBeVisible();
});

test('a protected page sends a visitor without a token to the sign-in page', async ({ page }) => {
  await page.goto('/dashboard');
  await page.waitForURL(/\/oidc\/interaction\//);
  await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
});

test('a wrong password is refused in French and nothing is signed in', async ({ page, context }) => {
  await signIn(page, 'backoffice@portail.test', 'mauvais-mot-de-passe');
  await expect(page.getByRole('alert')).toHaveText('Adresse email ou mot de passe incorrect.');
  expect((await context.cookies()).find((c) => c.name === 'portail.accessToken')).toBeUndefined();
});

test('an unknown path shows the 404 page with a link home', async ({ page }) => {
  await page.goto('/cette-page-nexiste-pas');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await page.getByRole('link', { name: "Retour à l'accueil" }).click();
  await page.waitForURL((url) => url.pathname === '/');
});

test('the sign-in page goes straight to the dashboard when a valid token cookie exists', async ({ page }) => {
  await signInToDashboard(page, 'lecteur@portail.test');
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });
  await page.goto('/authentication/sign-in');
  await page.waitForURL('**/dashboard');
  expect(visited.some((path) => path.startsWith('/oidc/'))).toBe(false);
});

test("a returning person's first screen reads its configuration from the page and needs no MSAL: no /portal-config.json, no MSAL code (issue 18)", async ({ page }) => {
  const asked: string[] = [];
  const msalCode: string[] = [];
  await openDashboardAs(page, 'backoffice@portail.test');
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path === '/portal-config.json') asked.push(path);
    if (/^\/assets\/msal-[\w-]+\.js$/.test(path)) msalCode.push(path);
  });
  await page.goto('/utilisateurs');
  await expect(page.getByRole('heading', { name: 'Gestion des utilisateurs', level: 1 })).toBeVisible();
  await expect(page.getByRole('table')).toBeVisible();
  expect(asked).toEqual([]);
  expect(msalCode).toEqual([]);
  // Signing out needs it: it loads then, and the provider's session ends as before.
  await sidebar(page).getByRole('link', { name: 'Déconnexion' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  expect(msalCode.length).toBeGreaterThan(0);
  expect((await page.context().cookies()).find((c) => c.name === 'portail.accessToken')).toBeUndefined();
});
