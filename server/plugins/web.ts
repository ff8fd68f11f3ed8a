import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { errorBody } from '../api/errors.ts';

/** The id of the element of index.html that carries the start-up configuration (src/app-config.ts reads it). */
export const STARTUP_CONFIG_ELEMENT_ID = 'portal-config';

/**
 * JSON that can stand inside a <script> element: no '</script>', no '<!--', and nothing a browser reads as the
 * end of a line of script.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * index.html as the SPA's pages are sent: with the start-up configuration written into it (issue 18), so that the
 * first screen does not wait for GET /portal-config.json. A data block (type application/json): never run, so
 * the Content-Security-Policy has nothing to allow.
 */
export function pageWithStartupConfig(html: string, startupConfig: unknown): string {
  const block = `<script id="${STARTUP_CONFIG_ELEMENT_ID}" type="application/json">${jsonForScript(startupConfig)}</script>`;
  return html.includes('</head>') ? html.replace('</head>', `${block}</head>`) : `${block}${html}`;
}

/** The SPA's files (when built), its pages for any other GET of HTML, and the API's French 404 for the rest. */
export async function serveWeb(app: FastifyInstance, webRoot: string, startupConfig: unknown): Promise<void> {
  const indexFile = path.join(webRoot, 'index.html');
  const hasWeb = fs.existsSync(indexFile);
  // Read once: the configuration does not change while the server runs.
  const page = hasWeb ? pageWithStartupConfig(fs.readFileSync(indexFile, 'utf8'), startupConfig) : '';
  const sendPage = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      // '/' and every page path are the page above, never the file as built.
      index: false,
      // The build writes a .br and a .gz beside each text asset (scripts/precompress.ts): sent as they are.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/', (_request, reply) => sendPage(reply));
    app.get('/index.html', (_request, reply) => sendPage(reply));
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const pathname = url.split('?')[0] ?? '';
    // A page of the SPA (it draws its own 404): a GET for HTML, outside the API and the provider, without a file extension.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !/^\/(api|oidc)(\/|$)/.test(pathname) &&
      !/\.[a-z0-9]+$/i.test(pathname) &&
      /html|\*\/\*/.test(request.headers.accept ?? '*/*');
    if (hasWeb && isPage) return sendPage(reply);
    return reply.code(404).send(errorBody(404, `Aucune ressource à ${request.method} ${url.split('?')[0]}.`, request.id));
  });
}
