// What the server's log records of a request: never a secret carried in a URL.
import type { FastifyRequest } from 'fastify';

/**
 * The only paths whose query string is logged: the API's, which carry filters and pages (what tells requests
 * apart) and never a credential, since its token travels in the Authorization header. Every other query string
 * is dropped: the local provider's (id_token_hint on sign-out, login_hint, code, state, code_challenge, the
 * account set-up link's token) and the SPA's pages (the redirect bridge receives code and state). Checked on
 * the path as sent, so '/%6Fidc/…' or '/OIDC/…' lose theirs too.
 */
const QUERY_LOGGED_PATHS = /^\/api\//;

/** The URL as the log shows it: the query string dropped everywhere but under /api/. */
export function loggableUrl(url: string): string {
  const cut = url.indexOf('?');
  if (cut === -1) return url;
  const pathname = url.slice(0, cut);
  return QUERY_LOGGED_PATHS.test(pathname) ? url : pathname;
}

/** Fastify's request serializer (method, url, host, remote address and port), with loggableUrl. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggableUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
