// The request body limit (issue 9, hardening): every body the contract allows fits, with room to spare; a
// larger one answers 413 with the error body, whether its length is announced or it comes in chunks.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../server/plugins/body-limit.ts';
import { loadApiDocument } from '../../server/api/openapi-document.ts';
import { PERSONAS, startUsersApp, userIdOf } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

type Schema = { maxItems?: number; maxLength?: number; properties?: Record<string, Schema>; $ref?: string; items?: Schema };
const schemas = (loadApiDocument() as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas;
const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(schemas[schema.$ref.split('/').pop()!]!) : schema);
/** A request schema's property, its $ref followed. */
const property = (request: string, name: string) => resolve(schemas[request]!.properties![name]!);

/** The longest a text field can be: its maxLength of characters, each written as a 6-byte \u escape (the longest JSON spells one). */
const longest = (schema: Schema) => 'é'.repeat(schema.maxLength!);
/** JSON as a client escaping every accented letter would send it. */
const escapedJson = (body: unknown) => JSON.stringify(body).replaceAll('é', '\\u00e9');
const LARGEST_ID = 2_147_483_647;
const UUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

function largestAssignments(request: string, name: string) {
  const roleIds = resolve(resolve(property(request, name).items!).properties!.roleIds!);
  return Array.from({ length: property(request, name).maxItems! }, () => ({ organizationId: UUID, roleIds: Array(roleIds.maxItems!).fill(LARGEST_ID), inheritsToChildren: false }));
}

/** The largest body of each operation with a sizeable one, per the contract's maxItems and maxLength. */
function largestBodies(): { operation: string; method: 'PUT' | 'POST'; url: (id: string) => string; json: string }[] {
  const text = (request: string, ...names: string[]) => Object.fromEntries(names.map((n) => [n, longest(property(request, n))]));
  const fields = ['firstName', 'lastName', 'email', 'jobTitle', 'phoneNumber', 'mobilePhone', 'street', 'city'];
  return [
    {
      operation: 'fullUpdateUser',
      method: 'PUT',
      url: (id) => `/api/v2/users/${id}/full-update`,
      json: escapedJson({ ...text('FullUpdateUserRequest', ...fields), postalCode: '69002', isActive: true, roleAssignments: largestAssignments('FullUpdateUserRequest', 'roleAssignments'), version: LARGEST_ID }),
    },
    {
      operation: 'replaceUserRoles',
      method: 'PUT',
      url: (id) => `/api/v2/users/${id}/roles/bulk`,
      json: escapedJson({ assignments: largestAssignments('ReplaceUserRolesRequest', 'assignments') }),
    },
    {
      operation: 'createUserComplete',
      method: 'POST',
      url: () => '/api/v2/users/complete',
      json: escapedJson({
        ...text('CreateUserCompleteRequest', ...fields, 'postalCode'),
        organizationCodes: Array(property('CreateUserCompleteRequest', 'organizationCodes').maxItems!).fill('12345678900012'),
        roleIds: Array(property('CreateUserCompleteRequest', 'roleIds').maxItems!).fill(LARGEST_ID),
      }),
    },
    {
      operation: 'updateUser',
      method: 'PUT',
      url: (id) => `/api/v2/users/${id}`,
      json: escapedJson({ ...text('UpdateUserRequest', 'firstName', 'lastName', 'email', 'metadata') }),
    },
  ];
}

// The limit does not depend on the database: PGlite only.
describe('the request body limit', () => {
  let t: TestApp, token: string, userId: string;
  beforeAll(async () => {
    ({ t } = await startUsersApp({ name: 'pglite' }));
    token = await t.tokenFor(PERSONAS.backoffice);
    userId = await userIdOf(t, PERSONAS.lecteur);
  });
  afterAll(() => t?.close());

  const send = (method: 'PUT' | 'POST', url: string, payload: string | Readable, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers } });

  it('reads the largest body of every operation, with at least a third of the limit to spare', async () => {
    for (const body of largestBodies()) {
      const size = Buffer.byteLength(body.json);
      expect(size, body.operation).toBeLessThan((BODY_LIMIT_BYTES * 2) / 3);
      const answer = await send(body.method, body.url(userId), body.json);
      // Read and judged on its contents (e-mails of 254 'é' are no e-mail: 400), never refused for its size.
      expect(answer.statusCode, `${body.operation} (${size} bytes): ${answer.body.slice(0, 200)}`).toBe(400);
    }
  });

  it('refuses a body over the limit with 413 and the error body, in French', async () => {
    const json = JSON.stringify({ firstName: 'Anne', lastName: 'Martin', email: 'anne.martin@exemple.fr', metadata: 'x'.repeat(BODY_LIMIT_BYTES) });
    const answer = await send('PUT', `/api/v2/users/${userId}`, json);
    expect(answer.statusCode).toBe(413);
    expect(answer.json()).toEqual({ error: 'PayloadTooLarge', message: 'Requête trop volumineuse : le corps ne doit pas dépasser 128 Ko.', requestId: answer.headers['x-request-id'] });
  });

  it('refuses a chunked body (no announced length) as soon as it goes over the limit', async () => {
    const chunk = Buffer.alloc(16_384, 'a');
    const chunks = Array.from({ length: BODY_LIMIT_BYTES / chunk.length + 1 }, () => chunk);
    const answer = await send('PUT', `/api/v2/users/${userId}`, Readable.from(chunks), { 'transfer-encoding': 'chunked' });
    expect(answer.statusCode).toBe(413);
    expect(answer.json()).toMatchObject({ error: 'PayloadTooLarge', requestId: answer.headers['x-request-id'] });
    expect(answer.json().message).toMatch(/^Requête trop volumineuse/);
  });

  it('reads a chunked body under the limit', async () => {
    const json = JSON.stringify({ firstName: 'Anne', lastName: 'Martin' });
    const answer = await send('PUT', `/api/v2/users/${userId}`, Readable.from([Buffer.from(json)]), { 'transfer-encoding': 'chunked' });
    // Read, then refused by the contract for its missing fields.
    expect(answer.statusCode).toBe(400);
    expect(answer.json().fieldErrors.map((f: { field: string }) => f.field)).toEqual(expect.arrayContaining(['body.email']));
  });
});
