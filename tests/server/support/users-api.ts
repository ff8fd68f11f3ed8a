// Calls of the users API as a given person, every answer checked against the contract; demo data lookups.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { expectMatchesContract } from './contract.ts';
import type { TestApp } from './test-app.ts';

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

export interface DemoOrganizations {
  clinique: { id: string; code: string };
  cliniqueSirets: { id: string; code: string }[];
  ehpad: { id: string; code: string };
  ehpadSirets: { id: string; code: string }[];
}

/** The two demo employers and their establishments (SIRETs sorted by code). */
export async function demoOrganizations(t: TestApp): Promise<DemoOrganizations> {
  const db = t.database.handle.db;
  const siren = (name: string) => db.selectFrom('organizations').select(['id', 'code']).where('name', '=', name).where('type', '=', 'SIREN').executeTakeFirstOrThrow();
  const sirets = (parentId: string) => db.selectFrom('organizations').select(['id', 'code']).where('parent_id', '=', parentId).orderBy('code').execute();
  const clinique = await siren('Clinique des Tilleuls');
  const ehpad = await siren('EHPAD Les Glycines');
  return { clinique, cliniqueSirets: await sirets(clinique.id), ehpad, ehpadSirets: await sirets(ehpad.id) };
}

export async function roleIds(t: TestApp): Promise<Record<string, number>> {
  const rows = await t.database.handle.db.selectFrom('roles').select(['id', 'code']).execute();
  return Object.fromEntries(rows.map((r) => [r.code, r.id]));
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
export async function rowCounts(t: TestApp) {
  const db = t.database.handle.db;
  const count = async (table: 'users' | 'role_assignments' | 'audit_log' | 'outbox' | 'identity_accounts' | 'user_permissions' | 'invitations') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    users: await count('users'),
    roleAssignments: await count('role_assignments'),
    audit: await count('audit_log'),
    outbox: await count('outbox'),
    identities: await count('identity_accounts'),
    userPermissions: await count('user_permissions'),
    invitations: await count('invitations'),
  };
}
