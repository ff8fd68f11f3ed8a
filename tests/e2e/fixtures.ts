import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo-Portail-2026';

/** The demo personas the setup project signs in once each (README, 'Demo accounts'; not the inactive one). */
export const PERSONAS = ['backoffice@portail.test', 'lecteur@portail.test', 'admin.clinique@portail.test', 'rh.clinique@portail.test', 'admin.ehpad@portail.test'] as const;

/** Where the setup project (personas.setup.ts) leaves a persona's signed-in browser state: in this run's output folder. */
export function personaStatePath(email: string): string {
  if (!(PERSONAS as readonly string[]).includes(email)) throw new Error(`${email} is not one of the personas signed in by personas.setup.ts`);
  return path.join(test.info().project.outputDir, '.personas', `${email}.json`);
}

/** Signs in through the real local provider, as a person would, and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/authentication/sign-in');
  await page.waitForURL(/\/oidc\/interaction\//);
  await page.getByLabel('Adresse email').fill(email);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

export async function signInToDashboard(page: Page, email: string): Promise<void> {
  await signIn(page, email);
  await page.waitForURL('**/dashboard');
  await expect(page.getByRole('heading', { name: 'Accueil', level: 1 })).toBeVisible();
}

/**
 * Opens the dashboard as a persona signed in already: the page's context takes the browser state that persona had
 * right after signing in through the local provider in the setup project (personas.setup.ts), as a person coming
 * back in the same browser, and the same dashboard is waited for as after a sign-in. What makes it signed in is the
 * portail.accessToken cookie (the session reads it without asking the provider) and MSAL's cache in localStorage
 * (with its key, the session cookie msal.cache.encryption) for a silent renewal. The provider's session cookie is
 * saved too but not relied on: tried alone, a saved copy gave one silent sign-in, then the provider asked for the
 * password again (and that way would still wait the sign-in pages' two 1 s delays).
 * Tests about signing in itself use signIn or signInToDashboard instead.
 */
export async function openDashboardAs(page: Page, email: string): Promise<void> {
  const saved = personaStatePath(email);
  if (!fs.existsSync(saved)) throw new Error(`No saved sign-in at ${saved}: openDashboardAs needs the 'personas' setup project to have run first (playwright.config.ts)`);
  const state = JSON.parse(fs.readFileSync(saved, 'utf8')) as Exclude<Parameters<BrowserContext['setStorageState']>[0], string>;
  // Every context shares the persona's one refresh token: past the ID token's hour they would all renew with it at
  // once, and the provider rotates it. Say so instead of failing somewhere in the middle of a test.
  const token = state.cookies.find((cookie) => cookie.name === 'portail.accessToken');
  const payload = token ? decodeURIComponent(token.value).split('.')[1] : undefined;
  const exp = payload ? Number((JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: number }).exp) : 0;
  if (!(exp * 1000 >= Date.now() + 5 * 60_000)) throw new Error(`The saved sign-in of ${email} (personas.setup.ts) has no token valid for 5 more minutes: runs longer than its hour are not supported`);
  await page.context().setStorageState(state);
  await page.goto('/dashboard');
  await page.waitForURL('**/dashboard');
  await expect(page.getByRole('heading', { name: 'Accueil', level: 1 })).toBeVisible();
}

export function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Navigation principale' });
}

/** The signed-in person's bearer token, for making test data through the API as they could. */
export async function bearer(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'portail.accessToken');
  if (!cookie) throw new Error('not signed in: no portail.accessToken cookie');
  return decodeURIComponent(cookie.value);
}

/** A new pending administrator request for a SIREN found by name, made through the API. */
export async function createPendingInvitation(page: Page, organizationName: string, type: 'NEW_ADMIN' | 'ROLE_ASSIGNMENT' = 'NEW_ADMIN') {
  const headers = { Authorization: `Bearer ${await bearer(page)}` };
  const orgs = await page.request.get(`/api/v2/organizations?type=SIREN&search=${encodeURIComponent(organizationName)}`, { headers });
  expect(orgs.status()).toBe(200);
  const siren = (await orgs.json()).items[0];
  const email = `e2e.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@exemple-test.fr`;
  const answer = await page.request.post('/api/v2/invitations', {
    headers,
    data: {
      inviteeEmail: email,
      roleCode: 'ADMIN_ADHERENT',
      invitationType: type,
      organizationCode: siren.code,
      metadata: { userProfile: { firstName: 'Camille', lastName: 'Essai' }, isNewUser: true },
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return { ...(await answer.json()), email } as { id: number; inviteeEmail: string; email: string; organizationCode: string };
}

/** A new user of an employer (found by name), holding one external role (or those of roleCodes) on one of its establishments, made through the API. */
export async function createUser(page: Page, organizationName: string, options: { lastName?: string; roleCode?: string; roleCodes?: string[]; jobTitle?: string } = {}) {
  const headers = { Authorization: `Bearer ${await bearer(page)}` };
  const sirets = await (await page.request.get(`/api/v2/organizations?type=SIRET&search=${encodeURIComponent(organizationName)}`, { headers })).json();
  const roles = (await (await page.request.get('/api/v2/roles', { headers })).json()) as { id: number; code: string }[];
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const lastName = options.lastName ?? 'Essai';
  const body = {
    email: `e2e.${unique}@exemple-test.fr`,
    firstName: 'Camille',
    lastName,
    jobTitle: options.jobTitle ?? 'Assistante',
    phoneNumber: '0612345678',
    street: '4 rue des Tests',
    postalCode: '69000',
    city: 'Lyon',
    organizationCodes: [sirets.items[0].code],
    roleIds: (options.roleCodes ?? [options.roleCode ?? 'COMPTABLE']).map((code) => roles.find((r) => r.code === code)!.id),
  };
  const answer = await page.request.post('/api/v2/users/complete', { headers, data: body });
  expect(answer.status(), await answer.text()).toBe(201);
  return { id: (await answer.json()).user.id as string, email: body.email, name: `Camille ${lastName}` };
}

/** Fills the wizard's step 1 ('Détails personnels') with a valid person. */
export async function fillWizardDetails(page: Page, person: { firstName?: string; lastName: string; email: string }): Promise<void> {
  await page.getByRole('textbox', { name: 'Prénom' }).fill(person.firstName ?? 'Élodie');
  await page.getByRole('textbox', { name: 'Nom', exact: true }).fill(person.lastName);
  await page.getByRole('textbox', { name: 'Email' }).fill(person.email);
  await page.getByRole('textbox', { name: 'Fonction' }).fill('Assistante de direction');
  await page.getByRole('textbox', { name: 'Téléphone' }).fill('+33 4 72 00 00 01');
  await page.getByRole('textbox', { name: 'Adresse' }).fill('12 rue des Lilas');
  await page.getByRole('textbox', { name: 'Code postal' }).fill('69003');
  await page.getByRole('textbox', { name: 'Ville' }).fill('Lyon');
}

/** Signs in as the inactive demo account: the browser's own alert 'Votre compte est désactivé.', then the landing page, signed out. */
export async function signInAsInactive(page: Page): Promise<void> {
  const alert = page.waitForEvent('dialog');
  await signIn(page, 'inactif@portail.test');
  const dialog = await alert;
  expect([dialog.type(), dialog.message()]).toEqual(['alert', 'Votre compte est désactivé.']);
  await dialog.accept();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
}
