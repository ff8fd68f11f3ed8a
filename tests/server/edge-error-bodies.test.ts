// Every error answer has the project's shape ({ error, message, fieldErrors?, requestId }), in French, with the
// request id of its x-request-id header, including the ones Fastify makes itself (issue 19: robustness of the edge).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { expectMatchesContract } from './support/contract.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { PERSONAS } from './support/users-api.ts';

const backend = backends[0]!;

function expectProjectShape(answer: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, status: number, error: string) {
  expect(answer.statusCode).toBe(status);
  expect(String(answer.headers['content-type'])).toContain('application/json');
  const body = answer.json() as { error: string; message: string; requestId: string };
  expect(body.error).toBe(error);
  expect(body.requestId).toBe(answer.headers['x-request-id']);
  // French: no English framework message (Fastify's are 'Bad Request', "Unexpected token …", 'Unsupported Media Type…').
  expect(body.message).not.toMatch(/\b(Bad|Unexpected|Unsupported|Invalid|Media|token|JSON at|body|Body)\b/);
  expect(Object.keys(body).sort()).toEqual(expect.arrayContaining(['error', 'message', 'requestId']));
  return body;
}

describe('error answers Fastify makes itself', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp(backend);
    token = await t.tokenFor(PERSONAS.backoffice);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers malformed percent-encoding in a path with 400, the project body and a request id', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/v2/users/%E0%A4%A', headers: { authorization: `Bearer ${token}` } });
    const body = expectProjectShape(answer, 400, 'BadRequest');
    expect(body.message).toBe('Adresse de la requête invalide : encodage en pourcentage incorrect.');
    expectMatchesContract('GET', '/api/v2/users/{id}', 400, body);
    // The security headers of every answer too (this one is made before any hook runs).
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-security-policy']).toBeDefined();
  });

  it('answers a malformed percent-encoding anywhere (the SPA, the provider) with the same body', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/oidc/%zz' });
    expectProjectShape(answer, 400, 'BadRequest');
  });

  it('answers malformed JSON with 400 naming body, in French', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"nom": "Durand",',
    });
    const body = expectProjectShape(answer, 400, 'BadRequest') as { message: string; fieldErrors?: { field: string }[] };
    expect(body.message).toBe('Requête invalide : le corps n’est pas un JSON valide.');
    expect(body.fieldErrors).toEqual([{ field: 'body', message: 'JSON invalide' }]);
    expectMatchesContract('POST', '/api/v2/users', 400, body);
  });

  it('answers a body of another media type with 415, in French, as the contract documents', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/v2/invitations',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/xml' },
      payload: '<invitation/>',
    });
    const body = expectProjectShape(answer, 415, 'UnsupportedMediaType');
    expect(body.message).toBe('Type de contenu non pris en charge : envoyez du JSON (Content-Type: application/json).');
    expectMatchesContract('POST', '/api/v2/invitations', 415, body);
  });

  it('refuses a CSV body the same way (the API answers CSV, it takes none)', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/v2/invitations',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      payload: 'inviteeEmail;roleCode\r\nx@exemple.fr;ADMIN_ADHERENT\r\n',
    });
    const body = expectProjectShape(answer, 415, 'UnsupportedMediaType');
    expect(body.message).toBe('Type de contenu non pris en charge : envoyez du JSON (Content-Type: application/json).');
  });

  it('documents 413 on every operation with a body, and 429 on every operation', async () => {
    const { loadApiDocument } = await import('../../server/api/openapi-document.ts');
    const document = loadApiDocument() as unknown as { paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>> };
    const missing: string[] = [];
    for (const [route, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
        if (!('429' in operation.responses)) missing.push(`${method} ${route} 429`);
        if (operation.requestBody && !('413' in operation.responses)) missing.push(`${method} ${route} 413`);
        if (operation.requestBody && !('415' in operation.responses)) missing.push(`${method} ${route} 415`);
      }
    }
    expect(missing).toEqual([]);
    const tooLarge = await t.app.inject({
      method: 'POST',
      url: '/api/v2/invitations',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ x: 'a'.repeat(200_000) }),
    });
    expectMatchesContract('POST', '/api/v2/invitations', 413, expectProjectShape(tooLarge, 413, 'PayloadTooLarge'));
  });
});
