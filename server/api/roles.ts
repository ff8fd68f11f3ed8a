import type { FastifyRequest } from 'fastify';
import type { HandlerDeps } from './deps.ts';
import { actorOf } from '../plugins/actor.ts';
import { listAllRoles } from '../features/roles/roles.repository.ts';
import { visibleRoles } from '../features/roles/roles.policy.ts';

export function rolesHandlers({ db }: HandlerDeps) {
  return {
    /** GET /api/v2/roles: the roles the caller may see (every one for the back office). */
    async listRoles(request: FastifyRequest) {
      const actor = actorOf(request);
      return visibleRoles(actor, await listAllRoles(db));
    },
  };
}
