import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { runtimeConfigFor } from '../runtime-config.ts';

/** What a load balancer and the SPA's start ask: alive, ready (the database answers), the public start-up configuration. */
export function registerHealth(app: FastifyInstance, config: ServerConfig, database: DatabaseHandle): void {
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'not ready', reason: 'database unreachable' });
    }
  });
  app.get('/portal-config.json', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return runtimeConfigFor(config);
  });
}
