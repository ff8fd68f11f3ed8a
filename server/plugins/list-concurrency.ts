// Expensive reads are bounded per person: at most 8 list requests in flight at once, and one export; the one
// over answers 429 with Retry-After and the API's error body, before any query. Eight lists are enough for the
// SPA, which preloads a list's next page and the lists of the menu (a handful at most); a script firing lists in
// parallel waits its turn. An export streams a whole list for seconds or minutes: a second one waits for the first.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../api/errors.ts';

/** The default (LISTS_IN_FLIGHT_PER_PERSON; 0 turns the limit off, as the benchmark does). */
export const MAX_LISTS_IN_FLIGHT = 8;

/** The contract's list operations (the paged, counted reads). */
const LIST_OPERATIONS = new Set(['listUsers', 'listInvitations', 'listMyInvitations', 'listOrganizations', 'listAuditEntries']);

/** The contract's exports (a whole list as a file, streamed): one per person at a time, whichever list. */
const EXPORT_OPERATIONS = new Set(['exportUsers', 'exportAuditEntries']);

/** A list takes well under a second: the client may try again in one. */
const RETRY_AFTER_SECONDS = 1;
/** An export of a large list takes a while (about 20 s for 1M users, bench/): try again later. */
const EXPORT_RETRY_AFTER_SECONDS = 10;

export const tooManyListsMessage = (max: number) => `Trop de listes demandées en même temps (${max} au plus). Réessayez dans ${RETRY_AFTER_SECONDS} seconde.`;
export const EXPORT_IN_PROGRESS = 'Un export est déjà en cours pour vous. Attendez qu’il se termine, ou annulez-le, avant d’en lancer un autre.';

function operationOf(request: FastifyRequest): string | undefined {
  return (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
}

interface InFlightLimit {
  operations: ReadonlySet<string>;
  max: number;
  retryAfterSeconds: number;
  message: string;
}

/**
 * Registers the limits as onRequest hooks, to add after the token check (the person is the verified token's
 * subject). The slot is given back once the answer is sent (for an export, its last byte), or when the connection
 * closes first.
 *
 * The counts live in this process's memory, per node: behind a load balancer a person may have 8 lists (and one
 * export) in flight on each node. That is acceptable for a concurrency limit, unlike for a rate or a business limit:
 * what it protects is this node's pool of connections and its event loop, and requests in flight end, so there is
 * nothing to share between nodes nor to keep across a restart.
 */
export function limitListsInFlight(app: FastifyInstance, max = MAX_LISTS_IN_FLIGHT): void {
  if (max === 0) return;
  limitInFlight(app, { operations: LIST_OPERATIONS, max, retryAfterSeconds: RETRY_AFTER_SECONDS, message: tooManyListsMessage(max) });
  limitInFlight(app, { operations: EXPORT_OPERATIONS, max: 1, retryAfterSeconds: EXPORT_RETRY_AFTER_SECONDS, message: EXPORT_IN_PROGRESS });
}

function limitInFlight(app: FastifyInstance, limit: InFlightLimit): void {
  const inFlight = new Map<string, number>();
  const releases = new WeakMap<FastifyRequest, () => void>();

  app.addHook('onRequest', async (request, reply) => {
    const operation = operationOf(request);
    if (!request.principal || !operation || !limit.operations.has(operation)) return;
    const person = request.principal.subject;
    const count = inFlight.get(person) ?? 0;
    if (count >= limit.max) {
      reply.header('retry-after', String(limit.retryAfterSeconds));
      throw new ApiError(429, limit.message);
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
