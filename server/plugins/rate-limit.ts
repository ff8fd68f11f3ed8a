// The API's rate limit: requests per minute of one person (the verified token's subject), or of one client
// address for requests without a valid token. 429 with Retry-After and the API's error body beyond it.
import rateLimit, { normalizeIP, type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HitCounter } from '../db/rate-limit-hits.ts';
import type { TokenVerifier } from '../identity/token-verifier.ts';
import { ApiError } from '../api/errors.ts';

/**
 * 600 a minute by default (API_RATE_LIMIT_PER_MINUTE; 0 turns the limit off). A person using the portal
 * stays far below: a screen loads in 2 to 5 calls and the list's search waits 500 ms after the last
 * keystroke, so even fast typing and paging make at most a few calls a second, a few dozen a minute.
 * 10 a second sustained for a minute is a script, which then waits for the end of its minute.
 */
export const DEFAULT_API_RATE_LIMIT_PER_MINUTE = 600;

const WINDOW_MS = 60_000;

export function tooManyRequestsMessage(seconds: number): string {
  return `Trop de requêtes. Réessayez dans ${seconds} seconde${seconds > 1 ? 's' : ''}.`;
}

/** Requests of the API: by the matched route ('/%61pi/…' reaches the API too) or by the URL (an unknown API path, which the SPA's wildcard route may match). */
function isApiRequest(request: FastifyRequest): boolean {
  return request.routeOptions.url?.startsWith('/api/') === true || request.url.startsWith('/api/');
}

/**
 * @fastify/rate-limit's store over the database's counts (server/db/rate-limit-hits.ts): one statement per
 * request, and one count per person for the whole cluster, whichever node the balancer picks. The plugin
 * builds it with its options only (`new Store(options)`), hence a class made around the counter.
 */
function sharedStore(counter: HitCounter): FastifyRateLimitStoreCtor {
  return class SharedRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      counter.hit(`api:${key}`, timeWindow).then(
        ({ count, msLeft }) => callback(null, { current: count, ttl: msLeft }),
        (error: Error) => callback(error),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

/**
 * Registers the limit for every request under /api/ (not the SPA's files, /healthz, /readyz nor the
 * provider), as an onRequest hook to add before the token check so that refused tokens count too.
 *
 * The counts are the database's (`hits`), shared by every node behind the load balancer: a person reaches
 * the limit once for the cluster. If the count cannot be made (the database is down), the request fails as
 * every API request then does (503, server/plugins/database-errors.ts).
 */
export async function registerApiRateLimit(app: FastifyInstance, options: { perMinute: number; verifyToken: TokenVerifier; hits: HitCounter }): Promise<void> {
  if (options.perMinute === 0) return;
  const { verifyToken } = options;
  await app.register(rateLimit, {
    // No route gets the plugin's own hook: the hook below decides which requests count.
    global: false,
    max: options.perMinute,
    timeWindow: WINDOW_MS,
    store: sharedStore(options.hits),
    async keyGenerator(request) {
      const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (token) {
        // The same verification as the token check that follows (server/plugins/bearer-auth.ts), which finds
        // it in the verifier's cache: a forged token never names someone else's count.
        const subject = await verifyToken(token).then((verified) => verified.subject, () => null);
        if (subject) return `user:${subject}`;
      }
      return `address:${normalizeIP(request.ip)}`;
    },
  });
  const countRequest = app.createRateLimit();
  app.addHook('onRequest', async (request, reply) => {
    if (!isApiRequest(request)) return;
    const result = await countRequest(request);
    if (result.isAllowed || !result.isExceeded) return;
    reply.header('retry-after', result.ttlInSeconds);
    throw new ApiError(429, tooManyRequestsMessage(result.ttlInSeconds));
  });
}
