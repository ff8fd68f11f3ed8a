// What the contract refuses but Fastify's validation of it lets through (found by tests/server/fuzz):
// - a request without its JSON body, or with another media type (text/plain): Fastify validates a body
//   only against the schema of its own media type, so the handler would get it unchecked;
// - ±Infinity in a parameter ('Infinity', '1e999'): ajv's coercion makes a number of it and then skips
//   minimum and maximum for non-finite numbers;
// - a uuid written as a URN ('urn:uuid:…'): ajv-formats accepts it, PostgreSQL does not.
import type { FastifyRequest } from 'fastify';
import type Ajv from 'ajv';
import { ApiError, type FieldError } from '../api/errors.ts';
import { loadApiDocument } from '../api/openapi-document.ts';

/** The uuid text PostgreSQL reads and the contract means (RFC 4122 form, any case). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The server's ajv (Fastify's `ajv.onCreate`, after ajv-formats): formats as the database reads them. */
export function databaseFormats(ajv: Ajv): void {
  ajv.addFormat('uuid', UUID);
}

type JsonBody = { content?: Record<string, unknown> };

/** Operations whose request body the contract marks required. */
const requiredBodies = new Set(
  Object.values(loadApiDocument().paths).flatMap((item) =>
    Object.values(item).flatMap((op) => {
      const { operationId, requestBody } = (op ?? {}) as { operationId?: string; requestBody?: { required?: boolean } };
      return operationId && requestBody?.required ? [operationId] : [];
    }),
  ),
);

/** preValidation: 400 naming `body` when a documented JSON body is missing (where required) or sent as another media type. */
export async function refuseUnvalidatedBodies(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema as { body?: JsonBody; operationId?: string } | undefined;
  const documented = schema?.body?.content;
  if (!request.routeOptions.url?.startsWith('/api/') || !documented) return;
  if (request.body === undefined) {
    if (!requiredBodies.has(schema.operationId ?? '')) return;
    const message = 'Corps de requête JSON obligatoire';
    throw new ApiError(400, `${message}.`, [{ field: 'body', message }]);
  }
  if (!request.mediaType || !(request.mediaType in documented)) {
    const message = `Type de contenu attendu : ${Object.keys(documented).join(', ')}`;
    throw new ApiError(400, `${message}.`, [{ field: 'body', message }]);
  }
}

function nonFinite(value: unknown, where: string): FieldError[] {
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [{ field: where, message: 'Nombre fini attendu' }];
  if (Array.isArray(value)) return value.flatMap((item, i) => nonFinite(item, `${where}.${i}`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => nonFinite(item, `${where}.${key}`));
  return [];
}

/** preHandler (after validation and its coercion): 400 naming the field of a non-finite number. */
export async function refuseNonFiniteNumbers(request: FastifyRequest): Promise<void> {
  if (!request.routeOptions.url?.startsWith('/api/')) return;
  const errors = [...nonFinite(request.params, 'params'), ...nonFinite(request.query, 'query')];
  if (errors.length) throw new ApiError(400, `Requête invalide : ${errors.map((e) => e.field).join(', ')}.`, errors);
}
