// The largest request body the server reads, refused with the API's error body and a French message.
import { Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { ApiError } from '../api/errors.ts';

/**
 * 128 KiB (131,072 bytes). The largest bodies the contract allows (its maxItems and maxLength, every text
 * at its maximum written with 6-byte \u escapes, the longest JSON spells a character, ids of 10 digits),
 * as tests/server/security-body-limit.test.ts builds them:
 * - fullUpdateUser (PUT /api/v2/users/{id}/full-update), 500 role assignments of
 *   `{"organizationId":"<uuid>","roleIds":[5 ids],"inheritsToChildren":false}` and the texts: 81,673 bytes;
 * - replaceUserRoles (PUT /api/v2/users/{id}/roles/bulk), the same 500 assignments: 76,017 bytes;
 * - updateUser (PUT /api/v2/users/{id}), its 10,000-character metadata: 62,779 bytes;
 * - createUserComplete (POST /api/v2/users/complete), 500 organization codes: 15,025 bytes.
 * The largest uses 62% of the limit. The SPA sends compact JSON; a client indenting a 500-assignment body
 * would go over (about 50 KB of spaces) and should send it compact.
 */
export const BODY_LIMIT_BYTES = 131_072;

/**
 * 512 KiB for the operations taking a selection of up to 10,000 user ids (startUsersBulkAction,
 * exportSelectedUsers): 10,000 ids written compact are 390,001 bytes, 76% of it.
 */
export const SELECTION_BODY_LIMIT_BYTES = 524_288;
const SELECTION_OPERATIONS: ReadonlySet<string> = new Set(['startUsersBulkAction', 'exportSelectedUsers']);

/** The limit of the request's operation. */
export function bodyLimitOf(request: FastifyRequest): number {
  const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
  return operationId && SELECTION_OPERATIONS.has(operationId) ? SELECTION_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES;
}

export const bodyTooLarge = (limit = BODY_LIMIT_BYTES) => new ApiError(413, `Requête trop volumineuse : le corps ne doit pas dépasser ${limit / 1024} Ko.`);

/**
 * preParsing hook: 413 before reading a body whose announced length is over the limit, and as soon as a
 * chunked body (no announced length) goes over it. Fastify's own check (bodyLimit) would answer in English.
 */
export async function refuseOversizedBodies(request: FastifyRequest, _reply: FastifyReply, payload: RequestPayload): Promise<RequestPayload> {
  const limit = bodyLimitOf(request);
  if (Number(request.headers['content-length']) > limit) throw bodyTooLarge(limit);
  // With a content-length, Node's parser delivers exactly that many bytes: nothing more to count.
  if (request.headers['transfer-encoding'] === undefined) return payload;
  let received = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > limit) done(bodyTooLarge(limit));
      else done(null, chunk);
    },
  });
  payload.on('error', (error) => counted.destroy(error));
  return payload.pipe(counted);
}
