import type { FastifyRequest } from 'fastify';
import type { Services } from '../features/services.ts';
import { actorOf } from '../plugins/actor.ts';

export function retentionHandlers({ retention }: Services) {
  return {
    /** GET /api/v2/retention: what the portal keeps and for how long, from this server's settings (back office). */
    async getRetention(request: FastifyRequest) {
      return { items: retention.describe(actorOf(request)) };
    },
  };
}
