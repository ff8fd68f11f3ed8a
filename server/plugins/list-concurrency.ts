// Expensive reads are bounded: at most 8 list requests of one person in flight at once; the ninth answers 429
// with Retry-After and the API's error body, before any query. Enough for the SPA, which preloads a list's next
// page and the lists of the menu (a handful at most); a script firing lists in parallel waits its turn.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../api/errors.ts';

/** The default (LISTS_IN_FLIGHT_PER_PERSON; 0 turns the limit off, as the benchmark does). */
export const MAX_LISTS_IN_FLIGHT = 8;

/** The contract's list operations (the paged, counted reads). There is no export operation; one would count apart. */
const LIST_OPERATIONS = new Set(['listUsers', 'listInvitations', 'listOrganizations', 'listAuditEntries']);

/** A list takes well under a second: the client may try again in one. */
const RETRY_AFTER_SECONDS = 1;

export const tooManyListsMessage = (max: number) => `Trop de listes demandées en même temps (${max} au plus). Réessayez dans ${RETRY_AFTER_SECONDS} seconde.`;

function operationOf(request: FastifyRequest): string | undefined {
  return (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
}

/**
 * Registers the limit as an onRequest hook, to add after the token check (the person is the verified token's
 * subject). The slot is given back once the answer is sent, or when the connection closes first.
 *
 * The counts live in this process's memory, per node: behind a load balancer a person may have 8 lists in flight
 * on each node. That is acceptable for a concurrency limit, unlike for a rate or a business limit: what it protects
 * is this node's pool of connections and its event loop, and requests in flight end within seconds, so there is
 * nothing to share between nodes nor to keep across a restart.
 */
export function limitListsInFlight(app: FastifyInstance, max = MAX_LISTS_IN_FLIGHT): void {
  if (max === 0) return;
  const inFlight = new Map<string, number>();
  const releases = new WeakMap<FastifyRequest, () => void>();

  app.addHook('onRequest', async (request, reply) => {
    const operation = operationOf(request);
    if (!request.principal || !operation || !LIST_OPERATIONS.has(operation)) return;
    const person = request.principal.subject;
    const count = inFlight.get(person) ?? 0;
    if (count >= max) {
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      throw new ApiError(429, tooManyListsMessage(max));
    }
    inFlight.set(person, count + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (inFlight.get(person) ?? 1) - 1;
      if (left > 0) inFlight.set(person, left);
      else inFlight.delete(person);
    };
    releases.set(request, release);
    reply.raw.once('close', release);
  });
  app.addHook('onResponse', async (request) => {
    releases.get(request)?.();
  });
}
