// Cross-origin calls of the API: only from the portal's own origin. Nothing else takes part in CORS (the
// local provider answers its own, server/dev-idp/local-provider.ts), and no other origin gets an answer it may read.
import cors, { type FastifyCorsOptionsDelegateCallback } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: @fastify/cors leaves the route alone. */
    cors?: false;
  }
}

const isApiPath = (request: FastifyRequest) => /^\/api\//.test(request.url);

export async function registerApiCors(app: FastifyInstance, publicOrigin: string): Promise<void> {
  // Routes outside the API skip CORS altogether (no 'Vary: Origin' on the SPA's files). The plugin's own
  // OPTIONS '*' route, which answers preflights, keeps it.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') && route.url !== '*') route.config = { ...route.config, cors: false };
  });
  const delegator: FastifyCorsOptionsDelegateCallback = (request, callback) => {
    // Judged on the URL as sent: a preflight is matched by the OPTIONS '*' route, not by the API's.
    if (!isApiPath(request) || request.headers.origin !== publicOrigin) return callback(null, { origin: false });
    callback(null, {
      origin: publicOrigin,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['authorization', 'content-type', 'if-match'],
      exposedHeaders: ['etag', 'retry-after', 'x-request-id'],
      maxAge: 600,
    });
  };
  await app.register(cors, { delegator });
}
