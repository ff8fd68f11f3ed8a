import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { errorBody } from '../api/errors.ts';

/** The SPA's files (when built), its pages for any other GET of HTML, and the API's French 404 for the rest. */
export async function serveWeb(app: FastifyInstance, webRoot: string): Promise<void> {
  const hasWeb = fs.existsSync(path.join(webRoot, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      index: 'index.html',
      // The build writes a .br and a .gz beside each text asset (scripts/precompress.ts): sent as they are.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
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
    if (hasWeb && isPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send(errorBody(404, `Aucune ressource à ${request.method} ${url.split('?')[0]}.`, request.id));
  });
}
