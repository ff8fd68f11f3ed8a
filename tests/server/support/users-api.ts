// Calls of the users API as a given person, every answer checked against the contract; demo data lookups.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Backend } from '../db/test-databases.ts';
import { expectMatchesContract } from './contract.ts';
import { countRows } from './fixtures.ts';
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

export interface ApiCall {
  as: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The contract's path, e.g. '/api/v2/users/{id}'. */
  route: string;
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  payload?: unknown;
  headers?: Record<string, string>;
}

export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Record<string, unknown>;
}

/** Calls the API with a token of `as`, checks the answer against the contract (operation and status), answers it. */
export async function callApi(t: TestApp, call: ApiCall): Promise<ApiAnswer> {
  const token = await t.tokenFor(call.as);
  let url = call.route.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(call.params?.[name] ?? `missing-${name}`));
  const query = Object.entries(call.query ?? {}).filter(([, v]) => v !== undefined);
  if (query.length) url += `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}`;
  const answer = await t.app.inject({
    method: call.method,
    url,
    headers: { authorization: `Bearer ${token}`, ...call.headers },
    ...(call.payload !== undefined ? { payload: call.payload as object } : {}),
  });
  const body = answer.body ? answer.json() : undefined;
  expectMatchesContract(call.method, call.route, answer.statusCode, body);
  if (answer.statusCode >= 400) expect(body.requestId).toBe(answer.headers['x-request-id']);
  return { status: answer.statusCode, body, headers: answer.headers };
}

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
