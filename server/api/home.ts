// GET /api/v2/home: the Accueil's counts of the waiting work (server/features/home/).
import type { FastifyRequest } from 'fastify';
import type { Services } from '../features/services.ts';
import { actorOf } from '../plugins/actor.ts';

export function homeHandlers({ home }: Services) {
  return {
    async getHome(request: FastifyRequest) {
      const { reminderPendingDays, expiringWithinDays, counts } = await home.get(actorOf(request));
      return { reminderPendingDays, expiringWithinDays, ...counts };
    },
  };
}
