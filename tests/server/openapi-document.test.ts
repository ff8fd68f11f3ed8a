import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import { beforeAll, describe, expect, it } from 'vitest';

const documentPath = fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url));

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

// The operationIds the server routes by and the SPA calls: renaming one breaks both.
const EXPECTED_OPERATION_IDS = [
  'getCurrentUser', 'getHome', 'confirmEmailChange', 'listUsers', 'exportUsers', 'getUser', 'getUserFullDetails', 'createUser', 'updateUser',
  'fullUpdateUser', 'createUserComplete', 'updateUserComplete', 'assignUserRoles', 'replaceUserRoles',
  'deactivateUser', 'reactivateUser', 'deleteUser', 'listInvitations', 'getInvitation',
  'createInvitation', 'approveInvitation', 'rejectInvitation', 'listMyInvitations', 'cancelInvitation', 'listOrganizations',
  'getOrganizationByCode', 'getOrganization', 'listRoles', 'listAuditEntries', 'exportAuditEntries',
  'resendUserInvitation', 'startUsersBulkAction', 'getUsersBulkAction', 'exportSelectedUsers', 'getUserPersonalData', 'getMyPersonalData',
  'getWorkflowFigures', 'exportWorkflowFigures', 'getRetention',
];

type Json = Record<string, unknown>;
interface Operation {
  key: string;
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  hasInput: boolean;
  responses: Json;
  requestBodySchema?: Json;
}

let validation: Awaited<ReturnType<Validator['validate']>>;
let document: Json;
let operations: Operation[];

function asObject(value: unknown): Json {
  return typeof value === 'object' && value !== null ? (value as Json) : {};
}

// Object schemas reachable through properties and items must refuse unknown fields. Branches of
// oneOf/anyOf only restate `required`; the enclosing object's additionalProperties covers them.
function objectsAllowingExtraFields(schema: Json, path: string): string[] {
  const found: string[] = [];
  const isObject = schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')) || 'properties' in schema;
  if (isObject && schema.additionalProperties !== false) found.push(path);
  for (const [name, child] of Object.entries(asObject(schema.properties))) {
    found.push(...objectsAllowingExtraFields(asObject(child), `${path}.${name}`));
  }
  if (schema.items) found.push(...objectsAllowingExtraFields(asObject(schema.items), `${path}[]`));
  return found;
}

beforeAll(async () => {
  const validator = new Validator();
  validation = await validator.validate(documentPath);
  document = validator.specification;
  const resolved = validator.resolveRefs();
  operations = [];
  for (const [path, pathItemValue] of Object.entries(asObject(resolved.paths))) {
    const pathItem = asObject(pathItemValue);
    const pathParameters = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
    for (const method of HTTP_METHODS) {
      if (!(method in pathItem)) continue;
      const operation = asObject(pathItem[method]);
      const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
      const requestBody = operation.requestBody ? asObject(operation.requestBody) : undefined;
      const bodySchema = requestBody ? asObject(asObject(asObject(requestBody.content)['application/json']).schema) : undefined;
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        operationId: typeof operation.operationId === 'string' ? operation.operationId : undefined,
        security: (operation.security ?? resolved.security) as Operation['security'],
        hasInput: pathParameters.length + parameters.length > 0 || requestBody !== undefined,
        responses: asObject(operation.responses),
        requestBodySchema: bodySchema,
      });
    }
  }
});

describe('openapi/openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document', () => {
    expect(validation.errors).toBeUndefined();
    expect(validation.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('names every operation with a unique operationId, exactly the agreed set', () => {
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...EXPECTED_OPERATION_IDS].sort());
  });

  it('puts every operation behind the bearer token', () => {
    const securitySchemes = asObject(asObject(document.components).securitySchemes);
    expect(securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    const open = operations.filter((operation) => !operation.security?.some((requirement) => 'bearerAuth' in requirement));
    expect(open.map((operation) => operation.key)).toEqual([]);
  });

  it('answers 401 everywhere and 400 wherever a request carries input', () => {
    const missing401 = operations.filter((operation) => !('401' in operation.responses));
    const missing400 = operations.filter((operation) => operation.hasInput && !('400' in operation.responses));
    expect(missing401.map((operation) => operation.key)).toEqual([]);
    expect(missing400.map((operation) => operation.key)).toEqual([]);
  });

  it('refuses unknown fields in every request body', () => {
    const bodies = operations.flatMap(({ key, requestBodySchema }) => (requestBodySchema ? [{ key, schema: requestBodySchema }] : []));
    expect(bodies.length).toBeGreaterThan(0);
    const lax = bodies.flatMap(({ key, schema }) => objectsAllowingExtraFields(schema, key));
    expect(lax).toEqual([]);
  });

  it('loads into Fastify through fastify-openapi-glue, which then validates requests against it', async () => {
    const app = Fastify({ ajv: { customOptions: { removeAdditional: false } } });
    app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
      void reply.status(error.statusCode ?? 500).send({ error: 'Error', message: error.message, requestId: request.id });
    });
    await app.register(openapiGlue, {
      specification: documentPath,
      // 299 has no response schema, so the stub's answer is not serialized against the document.
      operationResolver: (operationId: string) => async (_request: unknown, reply: { code: (status: number) => { send: (body: unknown) => unknown } }) =>
        reply.code(299).send({ operationId }),
      securityHandlers: { bearerAuth: async () => undefined },
    });
    try {
      const url = '/api/v2/users/3f0c1d7e-8a55-4c7b-9a51-1c2d3e4f5a6b/roles/bulk';
      const send = (assignment: Json) => app.inject({ method: 'PUT', url, payload: { assignments: [assignment] } });
      expect((await send({ organizationCode: '123456789', roleIds: [1] })).statusCode).toBe(299);
      expect((await send({ organizationCode: '123456789', roleIds: [1], extra: true })).statusCode).toBe(400);
      expect((await send({ roleIds: [1] })).statusCode).toBe(400);
      expect((await send({ organizationCode: '123456789', roleIds: [1, 2, 3, 4, 5, 6] })).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });
});
