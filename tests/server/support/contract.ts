import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadApiDocument } from '../../../server/api/openapi-document.ts';

const document = loadApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: 'openapi.json', components: document.components });

const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

type Operation = { responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }> };

/** Checks an answer against the response schema the contract documents for that operation and status. */
export function expectMatchesContract(method: string, route: string, status: number, body: unknown): void {
  const operation = (document.paths[route]?.[method.toLowerCase()] ?? null) as Operation | null;
  if (!operation) throw new Error(`${method} ${route} is not in openapi.yaml`);
  let response = operation.responses?.[String(status)];
  if (!response) throw new Error(`${method} ${route} does not document status ${status}`);
  if (response.$ref) {
    const name = response.$ref.split('/').pop()!;
    response = (document.components as { responses: Record<string, typeof response> }).responses[name]!;
  }
  if (response.content?.['text/csv']) {
    // A CSV file (exports): text; its reading is each export test's.
    if (typeof body !== 'string') throw new Error(`${method} ${route} ${status} should answer a CSV file, got ${typeof body}`);
    return;
  }
  if (response.content?.['text/html'] && typeof body === 'string') {
    // An HTML file (a person's data as a summary): text; its reading is its test's.
    return;
  }
  const schema = response.content?.['application/json']?.schema;
  if (!schema) {
    if (body !== undefined && body !== '' && body !== null) throw new Error(`${method} ${route} ${status} documents no body`);
    return;
  }
  const key = `${method} ${route} ${status}`;
  let validate = compiled.get(key);
  if (!validate) compiled.set(key, (validate = ajv.compile(wrap(schema))));
  if (!validate(body)) throw new Error(`${method} ${route} ${status} breaks its contract: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
}

function wrap(schema: unknown): object {
  // Local $refs of the document resolve against the registered components.
  return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/'));
}
