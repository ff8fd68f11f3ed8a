import { randomUUID } from 'node:crypto';
import { callApi, type ApiAnswer, type ApiRoute } from './api.ts';
import { countRows } from './fixtures.ts';
import type { TestApp } from './test-app.ts';

export type Answer = ApiAnswer;

/** The invitation operations as a demo account (or without a token); every answer is checked against the contract. */
export function invitationsApi(t: TestApp) {
  const call = (as: string | null, method: 'GET' | 'POST', route: ApiRoute, params: { id?: number | string }, query = '', payload?: object) =>
    callApi(t, { as, method, route, params: params as Record<string, string | number>, query, payload });
  return {
    list: (email: string | null, query = '') => call(email, 'GET', '/api/v2/invitations', {}, query),
    get: (email: string | null, id: number | string) => call(email, 'GET', '/api/v2/invitations/{id}', { id }),
    create: (email: string | null, payload: object, query = '') => call(email, 'POST', '/api/v2/invitations', {}, query, payload),
    approve: (email: string | null, id: number | string) => call(email, 'POST', '/api/v2/invitations/{id}/approve', { id }),
    reject: (email: string | null, id: number | string, rejectionReason: string) => call(email, 'POST', '/api/v2/invitations/{id}/reject', { id }, '', { rejectionReason }),
    /** Without `payload`, no body at all (the body is optional). */
    cancel: (email: string | null, id: number | string, payload?: object) => call(email, 'POST', '/api/v2/invitations/{id}/cancel', { id }, '', payload),
    mine: (email: string | null, query = '') => call(email, 'GET', '/api/v2/invitations/mine', {}, query),
  };
}

/** An email no account or invitation has yet. */
export function freshEmail(prefix = 'invite'): string {
  return `${prefix}.${randomUUID().slice(0, 8)}@exemple-test.fr`;
}

/** The profile of a person without an account, as the creation wizard sends it (spec §3). */
export function newPersonMetadata(overrides: Record<string, unknown> = {}, senderEmail = 'backoffice@portail.test') {
  return {
    userProfile: {
      firstName: 'Camille',
      lastName: "N'Diaye-Léger",
      jobTitle: 'Directrice des soins',
      phoneNumber: '04 72 00 00 01',
      mobilePhone: '',
      street: '12 rue des Tilleuls',
      city: 'Lyon',
      postalCode: '69003',
      ...overrides,
    },
    isNewUser: true,
    senderEmail,
  };
}

export async function organizationByName(t: TestApp, name: string) {
  return t.database.handle.db.selectFrom('organizations').selectAll().where('name', '=', name).where('type', '=', 'SIREN').executeTakeFirstOrThrow();
}

export async function firstSiretOf(t: TestApp, sirenId: string) {
  return t.database.handle.db.selectFrom('organizations').selectAll().where('parent_id', '=', sirenId).orderBy('code').limit(1).executeTakeFirstOrThrow();
}

/** Rows that a decision writes besides the invitation: to show that a refused one wrote none. */
export function traceCounts(t: TestApp) {
  return countRows(t.database.handle.db, { audit: 'audit_log', outbox: 'outbox', users: 'users', assignments: 'role_assignments', identities: 'identity_accounts' });
}
