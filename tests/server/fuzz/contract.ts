// The operations of openapi/openapi.yaml as the fuzz reads them, and the contract's checks with the
// validator the server uses: ajv's default draft (draft-07) with ajv-formats, as Fastify compiles it.
import Ajv, { type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { loadApiDocument } from '../../../server/api/openapi-document.ts';
import { databaseFormats } from '../../../server/plugins/validation-gaps.ts';

export type Schema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
  /** The component the parameter comes from (#/components/parameters/UserId → 'UserId'), if any. */
  ref: string | null;
}

export interface Operation {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The document's path, e.g. '/api/v2/users/{id}'. */
  route: string;
  parameters: Parameter[];
  /** The JSON schema of the request body, when the operation has one. */
  body: { schema: Schema; required: boolean } | null;
  /** `html`: the status may answer an HTML file instead (a person's data as a summary, issue 23). */
  responses: Record<string, { schema: Schema | null; html?: boolean }>;
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options'] as const;

export const document = loadApiDocument();
const components = document.components as { schemas: Record<string, Schema>; parameters: Record<string, Schema>; responses: Record<string, Schema> };

export const refName = (ref: string) => ref.split('/').pop()!;

/** The component a local $ref names (#/components/<kind>/<name>). */
export function component(ref: string): Schema {
  const [, , kind, name] = ref.split('/');
  const found = (components as unknown as Record<string, Record<string, Schema>>)[kind!]?.[name!];
  if (!found) throw new Error(`unresolved $ref ${ref}`);
  return found;
}

/** Every operation of the document, in the document's order. Refuses what the fuzz cannot send. */
export function operations(): Operation[] {
  const found: Operation[] = [];
  for (const [route, pathItem] of Object.entries(document.paths)) {
    const item = pathItem as Record<string, unknown>;
    const shared = (item.parameters ?? []) as Schema[];
    for (const method of METHODS) {
      const op = item[method] as (Schema & { operationId?: string }) | undefined;
      if (!op) continue;
      const where = `${method.toUpperCase()} ${route}`;
      if (!op.operationId) throw new Error(`${where} has no operationId`);
      if (!['get', 'post', 'put', 'delete'].includes(method)) throw new Error(`${where}: the fuzz sends GET, POST, PUT and DELETE only`);
      const parameters = [...shared, ...((op.parameters ?? []) as Schema[])].map((p) => parameter(p, where));
      found.push({
        operationId: op.operationId,
        method: method.toUpperCase() as Operation['method'],
        route,
        parameters,
        body: requestBody(op.requestBody as Schema | undefined, where),
        responses: responses(op.responses as Record<string, Schema>),
      });
    }
  }
  return found;
}

function parameter(node: Schema, where: string): Parameter {
  const ref = typeof node.$ref === 'string' ? node.$ref : null;
  const p = ref ? component(ref) : node;
  if (p.in !== 'path' && p.in !== 'query' && p.in !== 'header') throw new Error(`${where}: parameters in ${String(p.in)} are not fuzzed`);
  if (!p.schema) throw new Error(`${where}: parameter ${String(p.name)} has no schema`);
  return { name: String(p.name), in: p.in, required: p.required === true, schema: p.schema as Schema, ref: ref ? refName(ref) : null };
}

function requestBody(node: Schema | undefined, where: string): Operation['body'] {
  if (!node) return null;
  const body = typeof node.$ref === 'string' ? component(node.$ref) : node;
  const content = (body.content ?? {}) as Record<string, { schema?: Schema }>;
  const types = Object.keys(content);
  if (types.length !== 1 || !content['application/json']?.schema) throw new Error(`${where}: only an application/json request body is fuzzed (found ${types.join(', ')})`);
  return { schema: content['application/json'].schema, required: body.required === true };
}

function responses(node: Record<string, Schema>): Operation['responses'] {
  return Object.fromEntries(
    Object.entries(node).map(([status, value]) => {
      const response = typeof value.$ref === 'string' ? component(value.$ref) : value;
      const content = response.content as Record<string, { schema?: Schema }> | undefined;
      // An export answers a CSV file: text (its reading is tests/server/users-export.test.ts's).
      // A person's data answers JSON or, asked so, an HTML file (its reading is tests/server/users-personal-data.test.ts's).
      return [status, { schema: content?.['application/json']?.schema ?? content?.['text/csv']?.schema ?? null, html: content?.['text/html'] !== undefined }];
    }),
  );
}

// ---------- validators ----------

/** Options of the server's validator (server/app.ts customOptions over @fastify/ajv-compiler's defaults). */
const SERVER_AJV = { coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: true, strict: false, strictNumbers: true } as const;

function validatorWith(options: Options) {
  const ajv = new Ajv(options);
  addFormats.default(ajv);
  databaseFormats(ajv);
  ajv.addSchema({ $id: 'openapi.json', components: document.components as object });
  return ajv;
}
/** Local $refs of the document resolve against the registered components. */
const anchored = (schema: unknown): object => JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/'));

const responsesAjv = validatorWith({ strict: false, strictNumbers: true, allErrors: true });
const requestsAjv = validatorWith(SERVER_AJV);
const compiled = new Map<string, ValidateFunction>();
function compile(ajv: ReturnType<typeof validatorWith>, key: string, schema: unknown): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) compiled.set(key, (validate = ajv.compile(anchored(schema))));
  return validate;
}

/** Why an answer breaks the contract, or null when it keeps it: a documented status, a body of its schema. */
export function contractBreach(op: Operation, status: number, body: unknown): string | null {
  const documented = op.responses[String(status)] ?? op.responses.default;
  if (!documented) return `status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`;
  if (!documented.schema) return body === undefined ? null : `status ${status} documents no body`;
  if (documented.html && typeof body === 'string') return body.startsWith('<!doctype html>') ? null : `the body of ${status} is neither JSON nor an HTML page`;
  const validate = compile(responsesAjv, `${op.operationId} ${status}`, documented.schema);
  return validate(body) ? null : `the body breaks the ${status} schema: ${responsesAjv.errorsText(validate.errors)}`;
}

/** The parts of a request as Fastify validates them (as fastify-openapi-glue builds its route schemas). */
export interface RequestParts {
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body: unknown;
}

/** Whether the server's validator (coercion included) accepts these parts: the generators' own check. */
export function acceptedByContract(op: Operation, parts: RequestParts): { accepted: boolean; errors: string } {
  const errors: string[] = [];
  const group = (location: Parameter['in'], key: string, values: Record<string, unknown>, lower: boolean) => {
    const list = op.parameters.filter((p) => p.in === location);
    if (!list.length) return;
    const schema = {
      type: 'object',
      properties: Object.fromEntries(list.map((p) => [lower ? p.name.toLowerCase() : p.name, p.schema])),
      required: list.filter((p) => p.required).map((p) => (lower ? p.name.toLowerCase() : p.name)),
    };
    const validate = compile(requestsAjv, `${op.operationId} ${key}`, schema);
    if (!validate(structuredClone(values))) errors.push(`${key}: ${requestsAjv.errorsText(validate.errors)}`);
  };
  group('path', 'params', parts.params, false);
  group('query', 'querystring', parts.query, false);
  group('header', 'headers', parts.headers, true);
  if (op.body) {
    const validate = compile(requestsAjv, `${op.operationId} body`, op.body.schema);
    if (!validate(structuredClone(parts.body))) errors.push(`body: ${requestsAjv.errorsText(validate.errors)}`);
  }
  return { accepted: errors.length === 0, errors: errors.join('; ') };
}
