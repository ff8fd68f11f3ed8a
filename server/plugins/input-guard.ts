// Text PostgreSQL cannot store: U+0000 in text or jsonb, and an unpaired surrogate (JSON's "\ud83d" alone,
// which jsonb refuses: the audit trail and invitations keep texts as jsonb), make a statement fail
// (server/core/text.ts). Refused in one place, for every operation of the API, before the contract's validation, with the field named.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../api/errors.ts';
import { nulCharacterErrors } from '../core/text.ts';

/** 400 naming the field(s) when U+0000 or an unpaired surrogate appears anywhere in the parameters, query or body of an API request (preValidation hook). */
export async function refuseNulCharacters(request: FastifyRequest): Promise<void> {
  if (!request.routeOptions.url?.startsWith('/api/')) return;
  const errors = [
    ...nulCharacterErrors(request.params, 'params'),
    ...nulCharacterErrors(request.query, 'query'),
    ...nulCharacterErrors(request.body, 'body'),
  ];
  if (errors.length) {
    const message = errors.length === 1 ? errors[0]!.message : `Requête invalide : ${errors.map((e) => e.field).join(', ')}.`;
    throw new ApiError(400, message, errors);
  }
}
