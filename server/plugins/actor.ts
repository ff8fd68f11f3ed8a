import type { FastifyRequest } from 'fastify';
import type { Actor } from '../core/actor.ts';
import { unauthorized } from '../api/errors.ts';
import type { SessionService } from '../features/session/session.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

/** Routes an inactive account may still call: its own profile, so that the portal can tell it. */
const OPEN_TO_INACTIVE = new Set(['/api/v2/users/me']);

/**
 * Loads the calling user once per API request (after the token check, before validation and the
 * handler): 401 when no portal account has the token's subject, 403 for an inactive account.
 */
export function loadActorForApiRequests(session: SessionService) {
  return async (request: FastifyRequest) => {
    const route = request.routeOptions.url;
    if (!route?.startsWith('/api/') || !request.principal || OPEN_TO_INACTIVE.has(route)) return;
    request.actor = await session.activeActor(request.principal.subject);
  };
}

/** The actor of a handler's request (the hook guarantees it on every API route but /users/me). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}
