import type { FastifyRequest } from 'fastify';
import type { Services } from '../features/services.ts';
import { actorOf } from '../plugins/actor.ts';

export function rolesHandlers({ roles }: Services) {
  return {
    /** GET /api/v2/roles: the roles the caller may see (every one for the back office). */
    async listRoles(request: FastifyRequest) {
      return roles.list(actorOf(request));
    },
  };
}
