// Inputs the contract refuses that reached the handlers (found by tests/server/fuzz, fixed in
// server/plugins/validation-gaps.ts and input-guard.ts): each answers 400 naming the field, never 500 or a
// handler's answer. PGlite only, like the fuzz: these are refusals before any statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, PERSONAS, startUsersApp, userIdOf, type ApiCall } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

describe('inputs the validation let through before', () => {
  let t: TestApp, userId: string;
  beforeAll(async () => {
    ({ t } = await startUsersApp({ name: 'pglite' }));
    userId = await userIdOf(t, PERSONAS.rhClinique);
  });
  afterAll(() => t?.close());

  /** The call answers 400 naming exactly these fields. */
  async function refused(call: Omit<ApiCall, 'as'>, fields: string[], as: string = PERSONAS.backoffice) {
    const answer = await callApi(t, { as, ...call });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(fields);
  }

  it('refuses a write without its JSON body (400 on body, not 500)', async () => {
    await refused({ method: 'POST', route: '/api/v2/users/complete' }, ['body']);
    await refused({ method: 'PUT', route: '/api/v2/users/{id}/full-update', params: { id: userId } }, ['body']);
    // As a caller who may reject: one who may not gets 403 whatever the body (issue 19, tests/server/security-rights.test.ts).
    await refused({ method: 'POST', route: '/api/v2/invitations/{id}/reject', params: { id: '1' } }, ['body'], PERSONAS.backoffice);
  });

  it('refuses a JSON body sent as text/plain (400 on body)', async () => {
    const payload = JSON.stringify({ firstName: 'Romain', lastName: 'Garnier', email: 'rh.clinique@portail.test', metadata: null });
    await refused({ method: 'PUT', route: '/api/v2/users/{id}', params: { id: userId }, payload, headers: { 'content-type': 'text/plain' } }, ['body']);
  });

  it.each([
    ['/api/v2/invitations/{id}', { params: { id: 'Infinity' } }, 'params.id'],
    ['/api/v2/invitations/{id}', { params: { id: '-1e999' } }, 'params.id'],
    ['/api/v2/organizations', { query: { limit: '1e999' } }, 'query.limit'],
    ['/api/v2/users', { query: { page: 'Infinity' } }, 'query.page'],
  ] as const)('refuses ±Infinity in a parameter of %s: %j answers 400 naming %s', async (route, call, field) => {
    await refused({ method: 'GET', route, ...call }, [field]);
  });

  it('refuses a uuid written as a URN, which PostgreSQL cannot read (400, not 500)', async () => {
    await refused({ method: 'GET', route: '/api/v2/users/{id}', params: { id: `urn:uuid:${userId}` } }, ['params.id']);
    await refused({ method: 'GET', route: '/api/v2/organizations', query: { parentId: `urn:uuid:${userId}` } }, ['query.parentId']);
  });

  it('refuses half of a UTF-16 pair alone in a text, which jsonb cannot store (400, not 500)', async () => {
    const payload = { firstName: 'Romain', lastName: 'Garnier', email: 'rh.clinique@portail.test', metadata: null };
    await refused({ method: 'PUT', route: '/api/v2/users/{id}', params: { id: userId }, payload: { ...payload, lastName: 'Gar\ud83dnier' } }, ['body.lastName']);
    await refused({ method: 'PUT', route: '/api/v2/users/{id}', params: { id: userId }, payload: { ...payload, metadata: '{"city":"Lyon\\ud83d"}' } }, ['body.metadata.city']);
  });
});
