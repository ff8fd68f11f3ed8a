import type { FastifyRequest } from 'fastify';

/** The version the caller read, from If-Match (`"7"`, `W/"7"` or `7`); undefined without one. */
export function ifMatchVersion(request: FastifyRequest): number | undefined {
  const ifMatch = request.headers['if-match'];
  return typeof ifMatch === 'string' ? Number(ifMatch.replace(/^W\//, '').replaceAll('"', '')) : undefined;
}
