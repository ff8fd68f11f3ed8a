// The fake API itself: it answers what a test declares, and refuses, loudly, an answer the contract does not allow.
import { describe, expect, it } from 'vitest';
import type { Organization } from '../../../src/api/organizations';
import { fakeApi, fault } from './fake-api';

const CLINIQUE: Organization = { id: '00000000-0000-4000-8000-00000000a000', code: '787441799', name: 'Clinique des Tilleuls', type: 'SIREN', parentCode: null, parentId: null, member: true, closed: false };
const get = (api: ReturnType<typeof fakeApi>, path: string, init?: RequestInit) => api.fetch(new Request(`https://portal.test${path}`, init));

describe('the fake API of the UI tests', () => {
  it('answers a declared route with its handler, and records the call', async () => {
    const api = fakeApi().on('get', '/api/v2/organizations/{id}', ({ params }) => ({ status: 200, body: { ...CLINIQUE, id: params.id } }));
    const response = await get(api, `/api/v2/organizations/${CLINIQUE.id}?x=1`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(CLINIQUE);
    expect(api.calls.map((c) => [c.method, c.route, c.params, c.query.get('x')])).toEqual([['GET', '/api/v2/organizations/{id}', { id: CLINIQUE.id }, '1']]);
  });

  it("answers a request without a handler 404 NotFound, as the contract documents it", async () => {
    const response = await get(fakeApi(), `/api/v2/users/${CLINIQUE.id}`);
    expect([response.status, (await response.json()).error]).toEqual([404, 'NotFound']);
  });

  it('fails the request, and the test, when an answer breaks the contract', async () => {
    const { parentId: _left, ...drifted } = CLINIQUE;
    // A body the types accept only by force: the contract check is what catches a fixture built loosely.
    const api = fakeApi().on('get', '/api/v2/organizations/{id}', () => ({ status: 200, body: drifted as Organization }));
    await expect(get(api, `/api/v2/organizations/${CLINIQUE.id}`)).rejects.toThrow("GET /api/v2/organizations/{id} 200 breaks its contract: data must have required property 'parentId'");
    expect(api.breaches).toHaveLength(1);
    api.breaches.length = 0;
  });

  it('fails a request the contract does not know', async () => {
    const api = fakeApi();
    await expect(get(api, '/api/v2/nothing')).rejects.toThrow('GET /api/v2/nothing is not in openapi.yaml');
    await expect(get(api, '/api/v2/roles', { method: 'DELETE' })).rejects.toThrow('DELETE /api/v2/roles is not in openapi.yaml');
    expect(api.breaches).toHaveLength(2);
    api.breaches.length = 0;
  });

  it('plays a 500 only as a fault, whose body is still an ErrorBody', async () => {
    const api = fakeApi().on('get', '/api/v2/roles', () => fault(500, { error: 'InternalError', message: 'Erreur interne du serveur.', requestId: 'r' }));
    expect((await get(api, '/api/v2/roles')).status).toBe(500);
    api.on('get', '/api/v2/roles', () => fault(500, { message: 'sans code' } as never));
    await expect(get(api, '/api/v2/roles')).rejects.toThrow("must have required property 'error'");
    api.breaches.length = 0;
    // @ts-expect-error a status the contract does not document for the operation
    api.on('get', '/api/v2/roles', () => ({ status: 500, body: { error: 'InternalError', message: 'x', requestId: 'r' } }));
    // @ts-expect-error a body of another schema
    api.on('get', '/api/v2/roles', () => ({ status: 200, body: CLINIQUE }));
  });
});
