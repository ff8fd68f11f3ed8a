// Calls of the users API as a given person, every answer checked against the contract; demo data lookups.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Backend } from '../db/test-databases.ts';
import { callApi, type ApiAnswer } from './api.ts';
import { countRows } from './fixtures.ts';
import { startGraphStub } from './graph-stub.ts';
import { demoOrganizations, type DemoOrganizations } from './organizations.ts';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app.ts';

export { demoOrganizations, type DemoOrganizations };

export const PERSONAS = {
  backoffice: 'backoffice@portail.test',
  lecteur: 'lecteur@portail.test',
  adminClinique: 'admin.clinique@portail.test',
  rhClinique: 'rh.clinique@portail.test',
  adminEhpad: 'admin.ehpad@portail.test',
  inactif: 'inactif@portail.test',
} as const;

export { callApi, type ApiAnswer, type ApiCall } from './api.ts';

/** An address no other test uses. */
export function uniqueEmail(prefix = 'test'): string {
  return `${prefix}.${randomBytes(5).toString('hex')}@exemple.fr`;
}

export type RoleIds = Record<string, number>;

export async function roleIds(t: TestApp): Promise<RoleIds> {
  const rows = await t.database.handle.db.selectFrom('roles').select(['id', 'code']).execute();
  return Object.fromEntries(rows.map((r) => [r.code, r.id]));
}

/** The app of a users test file, with the demo organizations and the role ids by code. */
export async function startUsersApp(backend: Backend, options: TestAppOptions = {}): Promise<{ t: TestApp; orgs: DemoOrganizations; roles: RoleIds }> {
  const t = await startTestApp(backend, options);
  return { t, orgs: await demoOrganizations(t), roles: await roleIds(t) };
}

export async function userIdOf(t: TestApp, email: string): Promise<string> {
  return (await t.database.handle.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
}

/** A valid wizard payload (createUser) on these SIRETs with these role codes. */
export function wizardPayload(sirets: string[], roles: string[], overrides: Record<string, unknown> = {}) {
  return {
    nom: 'Durand',
    prenom: 'Élodie',
    email: uniqueEmail('wizard'),
    sirets,
    roles,
    phoneNumber: '04 72 00 00 00',
    jobTitle: 'Assistante RH',
    mobilePhone: '',
    street: '12 rue des Lilas',
    postalCode: '69003',
    city: 'Lyon',
    hasInternalRole: false,
    ...overrides,
  };
}

/** A valid createUserComplete payload. */
export function completePayload(organizationCodes: string[], roleIds: number[], overrides: Record<string, unknown> = {}) {
  return {
    email: uniqueEmail('complete'),
    firstName: 'Marc',
    lastName: "L'Hôte",
    jobTitle: 'Comptable',
    phoneNumber: '0612345678',
    street: '3 place Bellecour',
    postalCode: '69002',
    city: 'Lyon',
    organizationCodes,
    roleIds,
    ...overrides,
  };
}

/** Creates a user through the API as back-office (createUserComplete) and answers its UserDetail. */
export async function createUserAs(t: TestApp, as: string, organizationCodes: string[], roles: number[], overrides: Record<string, unknown> = {}) {
  const answer = await callApi(t, { as, method: 'POST', route: '/api/v2/users/complete', payload: completePayload(organizationCodes, roles, overrides) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { user: { id: string; email: string; version: number }; organizations: { id: string; code: string; role: { code: string } }[] };
}

/** Row counts of the tables a user write touches. */
export function rowCounts(t: TestApp) {
  return countRows(t.database.handle.db, {
    users: 'users',
    roleAssignments: 'role_assignments',
    audit: 'audit_log',
    outbox: 'outbox',
    identities: 'identity_accounts',
    userPermissions: 'user_permissions',
    invitations: 'invitations',
  });
}

/** The token of the last confirmation link (an 'email.change.confirm' e-mail) sent to this new address. */
export async function emailChangeToken(t: TestApp, newEmail: string): Promise<string> {
  const mail = await t.database.handle.db
    .selectFrom('outbox')
    .select('body')
    .where('recipient', '=', newEmail)
    .where('kind', '=', 'email.change.confirm')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return new URL(/https:\/\/\S+\/compte\/confirmer-email\S+/.exec(mail.body)![0]).searchParams.get('token')!;
}

/**
 * Confirms the pending e-mail change of this new address as its owner does (issue 19): the link of the last
 * 'email.change.confirm' e-mail sent there, posted by the portal's confirmation page with the token of `as`,
 * by default the person whose address changes (signed in with their current address). Answers the API's answer.
 */
export async function confirmEmailChange(t: TestApp, newEmail: string, as?: string): Promise<ApiAnswer> {
  const token = await emailChangeToken(t, newEmail);
  const person =
    as ??
    (
      await t.database.handle.db
        .selectFrom('users')
        .select('email')
        .where((eb) => eb(eb.fn('lower', ['pending_email']), '=', newEmail.toLowerCase()))
        .executeTakeFirstOrThrow()
    ).email;
  return callApi(t, { as: person, method: 'POST', route: '/api/v2/users/me/email-confirmation', payload: { token } });
}

/**
 * For the describe block that calls it: the users app whose identity directory is Microsoft Graph, played by a
 * local stub (started before the block's tests, closed after them). Read its fields inside the tests.
 */
export function usersAppOnGraph(backend: Backend) {
  const app = {} as { t: TestApp; orgs: DemoOrganizations; roles: RoleIds; graph: Awaited<ReturnType<typeof startGraphStub>> };
  beforeAll(async () => {
    app.graph = await startGraphStub();
    Object.assign(app, await startUsersApp(backend, { directory: app.graph.directory() }));
  });
  afterAll(async () => {
    await app.t?.close();
    await app.graph?.close();
  });
  return app;
}

/**
 * For the describe block that calls it: the users app (started before the block's tests, closed after them) and
 * a way to make a new organization user through the API. Read its fields inside the tests.
 */
export function usersAppFor(backend: Backend, options: TestAppOptions = {}) {
  const app = {} as { t: TestApp; orgs: DemoOrganizations; roles: RoleIds };
  beforeAll(async () => {
    Object.assign(app, await startUsersApp(backend, options));
  });
  afterAll(() => app.t?.close());
  return {
    app,
    db: () => app.t.database.handle.db,
    /** A new user holding COMPTABLE on the Clinique's first SIRET, made by the back office. */
    freshUser: (overrides: Record<string, unknown> = {}) => createUserAs(app.t, PERSONAS.backoffice, [app.orgs.cliniqueSirets[0]!.code], [app.roles.COMPTABLE!], overrides),
  };
}
