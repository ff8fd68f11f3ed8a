import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, { operationId?: string } & Record<string, unknown>>>;
} & Record<string, unknown>;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
export const DOCUMENT_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../openapi/openapi.yaml');

/** Read when the module loads: a file of the repository, the same for every app of the process. */
const DOCUMENT = parse(fs.readFileSync(DOCUMENT_PATH, 'utf8')) as OpenApiDocument;

/** The contract: the same document validates requests here and types the SPA. */
export function loadApiDocument(): OpenApiDocument {
  return DOCUMENT;
}

export function operationIds(doc: OpenApiDocument): string[] {
  return Object.values(doc.paths).flatMap((item) =>
    HTTP_METHODS.flatMap((m) => (item[m]?.operationId ? [item[m].operationId] : [])),
  );
}

/** A copy of the document keeping only the operations the server implements, so that no route answers without a handler. */
export function documentForOperations(doc: OpenApiDocument, implemented: ReadonlySet<string>): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const [route, item] of Object.entries(doc.paths)) {
    const kept = Object.fromEntries(
      Object.entries(item).filter(([key, op]) => !HTTP_METHODS.includes(key) || implemented.has((op as { operationId?: string }).operationId ?? '')),
    );
    if (HTTP_METHODS.some((m) => m in kept)) paths[route] = kept;
  }
  return { ...doc, paths };
}
