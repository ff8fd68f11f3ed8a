import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { loadActor, type Actor } from '../core/actor.ts';
import { requireActive } from '../core/policy.ts';
import { unauthorized } from '../api/errors.ts';

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
export function loadActorForApiRequests(db: Kysely<Database>) {
  return async (request: FastifyRequest) => {
    const route = request.routeOptions.url;
    if (!route?.startsWith('/api/') || !request.principal || OPEN_TO_INACTIVE.has(route)) return;
    const actor = await loadActor(db, request.principal.subject);
    if (!actor) throw unauthorized('Aucun compte du portail ne correspond à cette identité.');
    requireActive(actor);
    request.actor = actor;
  };
}

/** The actor of a handler's request (the hook guarantees it on every API route but /users/me). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}
