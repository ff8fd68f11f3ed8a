import type { FastifyRequest } from 'fastify';
import { InvalidTokenError, type TokenVerifier } from '../identity/token-verifier.ts';
import { unauthorized } from '../api/errors.ts';
import { API_DOCS_ASSET_ROUTE, API_DOCS_ROUTE, OPENAPI_JSON_ROUTE } from './api-docs.ts';

/** The only routes under /api/ answered without a token: the published contract and its rendering (no data). */
export const PUBLIC_API_ROUTES: ReadonlySet<string> = new Set([OPENAPI_JSON_ROUTE, API_DOCS_ROUTE, API_DOCS_ASSET_ROUTE]);

/**
 * Checks the bearer token of every API request first (onRequest), so that a caller
 * without a valid token learns nothing else, not even whether its input was valid.
 */
export function authenticateApiRequests(verify: TokenVerifier, onRejected: (reason: 'missing' | 'invalid') => void = () => {}) {
  return async (request: FastifyRequest) => {
    // Judged on the matched route, not the raw URL: '/%61pi/...' routes to the API too.
    const route = request.routeOptions.url;
    if (!route?.startsWith('/api/') || PUBLIC_API_ROUTES.has(route)) return;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(header);
    if (!match?.[1]) {
      onRejected('missing');
      throw unauthorized('Jeton d’authentification manquant.');
    }
    try {
      request.principal = await verify(match[1]);
    } catch (error) {
      if (error instanceof InvalidTokenError) {
        onRejected('invalid');
        throw unauthorized('Jeton d’authentification invalide ou expiré.');
      }
      throw error;
    }
  };
}

/** The OpenAPI `bearerAuth` scheme: the token was verified on arrival. */
export async function bearerAuth(request: FastifyRequest): Promise<void> {
  if (!request.principal) throw unauthorized();
}
