// GET /metrics for Prometheus: not public. It answers only with METRICS_TOKEN as a bearer token
// (`Authorization: Bearer …`), compared in constant time; without METRICS_TOKEN the route does not exist.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PortalMetrics } from '../observability/metrics.ts';

export const METRICS_ROUTE = '/metrics';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Counts every answer (route pattern, method, status, duration) and serves the registry to the bearer of `token`. */
export function registerMetrics(app: FastifyInstance, metrics: PortalMetrics, token: string | null): void {
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    metrics.observeRequest({
      method: request.method,
      // The pattern (/api/v2/users/:id), never the URL: one series per route, whatever the ids and queries.
      route: request.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
  });
  if (token === null) return;
  const expected = digest(token);
  app.get(METRICS_ROUTE, { logLevel: 'warn' }, async (request, reply) => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (!match?.[1] || !timingSafeEqual(digest(match[1]), expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .header('cache-control', 'no-store')
        .send({ status: 401, message: 'Jeton des métriques manquant ou invalide.' });
    }
    const text = await metrics.registry.metrics();
    return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });
}
