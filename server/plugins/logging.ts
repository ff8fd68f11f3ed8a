// What the server's log records of a request: never a secret carried in a URL.
import type { FastifyRequest } from 'fastify';

/** Paths whose query string carries a credential (the account set-up and e-mail confirmation links' tokens): logged without it. */
const SECRET_QUERY_PATHS = /^\/(oidc\/account\/|compte\/confirmer-email$)/;

/** The URL as the log shows it: the query string dropped for the paths above. */
export function loggableUrl(url: string): string {
  const [pathname = '', query] = url.split('?', 2);
  return query !== undefined && SECRET_QUERY_PATHS.test(pathname) ? pathname : url;
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
