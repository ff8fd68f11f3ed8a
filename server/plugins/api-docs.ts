// The contract for integrators: the document as JSON, and Swagger UI (swagger-ui-dist, served from
// node_modules: no CDN) rendering it. Public, like any published API reference: it holds no data.
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../api/errors.ts';
import type { OpenApiDocument } from '../api/openapi-document.ts';

export const OPENAPI_JSON_ROUTE = '/api/v2/openapi.json';
export const API_DOCS_ROUTE = '/api/docs';
export const API_DOCS_ASSET_ROUTE = '/api/docs/:file';

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const swaggerUiVersion = (JSON.parse(readFileSync(path.join(swaggerUiDir, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * Swagger UI's start, in a file of its own: the content policy (script-src 'self') refuses inline
 * scripts. No validator badge (it would call swagger.io), no configuration from the query string
 * (a reflected-XSS vector of older releases).
 */
const INITIALIZER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '${OPENAPI_JSON_ROUTE}',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    queryConfigEnabled: false,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

/** The files /api/docs/:file serves, and nothing else. */
const ASSETS: Record<string, { type: string; source: { file: string } | { text: string } }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', source: { file: 'swagger-ui.css' } },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', source: { file: 'swagger-ui-bundle.js' } },
  'favicon-32x32.png': { type: 'image/png', source: { file: 'favicon-32x32.png' } },
  'initializer.js': { type: 'text/javascript; charset=utf-8', source: { text: INITIALIZER } },
};

const asset = (name: string) => `${API_DOCS_ROUTE}/${name}?v=${swaggerUiVersion}`;

const PAGE = `<!doctype html>
<html lang="fr">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>Portail Habilitations – documentation de l’API</title>
    <link rel="stylesheet" href="${asset('swagger-ui.css')}">
    <link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}">
  </head>
  <body>
    <noscript>La documentation interactive demande JavaScript ; le contrat est lisible à <a href="${OPENAPI_JSON_ROUTE}">${OPENAPI_JSON_ROUTE}</a>.</noscript>
    <div id="swagger-ui"></div>
    <script src="${asset('swagger-ui-bundle.js')}"></script>
    <script src="${asset('initializer.js')}"></script>
  </body>
</html>
`;

/** Registers the three public routes; bearer-auth.ts exempts exactly these from the token check. */
export function registerApiDocs(app: FastifyInstance, document: OpenApiDocument): void {
  const json = JSON.stringify(document);
  const cache = new Map<string, Buffer | string>();

  app.get(OPENAPI_JSON_ROUTE, async (_request, reply) => {
    return reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(json);
  });

  app.get(API_DOCS_ROUTE, async (_request, reply) => {
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(PAGE);
  });

  app.get(API_DOCS_ASSET_ROUTE, async (request, reply) => {
    const { file } = request.params as { file: string };
    const entry = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!entry) return reply.code(404).send(errorBody(404, `Aucune ressource à GET ${API_DOCS_ROUTE}/${file}.`, request.id));
    let body = cache.get(file);
    if (body === undefined) {
      body = 'text' in entry.source ? entry.source.text : await fs.readFile(path.join(swaggerUiDir, entry.source.file));
      cache.set(file, body);
    }
    // The page asks for ?v=<swagger-ui version>: a new release is a new URL.
    return reply.header('cache-control', 'public, max-age=31536000, immutable').type(entry.type).send(body);
  });
}
