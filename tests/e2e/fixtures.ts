import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo-Portail-2026';

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

/** A new user of an employer (found by name), holding one external role on one of its establishments, made through the API. */
export async function createUser(page: Page, organizationName: string, options: { lastName?: string; roleCode?: string } = {}) {
  const headers = { Authorization: `Bearer ${await bearer(page)}` };
  const sirets = await (await page.request.get(`/api/v2/organizations?type=SIRET&search=${encodeURIComponent(organizationName)}`, { headers })).json();
  const roles = (await (await page.request.get('/api/v2/roles', { headers })).json()) as { id: number; code: string }[];
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const lastName = options.lastName ?? 'Essai';
  const body = {
    email: `e2e.${unique}@exemple-test.fr`,
    firstName: 'Camille',
    lastName,
    jobTitle: 'Assistante',
    phoneNumber: '0612345678',
    street: '4 rue des Tests',
    postalCode: '69000',
    city: 'Lyon',
    organizationCodes: [sirets.items[0].code],
    roleIds: [roles.find((r) => r.code === (options.roleCode ?? 'COMPTABLE'))!.id],
  };
  const answer = await page.request.post('/api/v2/users/complete', { headers, data: body });
  expect(answer.status(), await answer.text()).toBe(201);
  return { email: body.email, name: `Camille ${lastName}` };
}
