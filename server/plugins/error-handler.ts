import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { answerOf, errorBody, fieldErrorsFromValidation, type FieldError } from '../api/errors.ts';
import type { SecurityHeaders } from './security-headers.ts';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, TRANSACTION_CONFLICT_MESSAGE, transactionConflictOf } from './database-errors.ts';

/** The errors Fastify makes itself (its FST_ERR_* codes), as the portal answers them: a status and a French message. */
const FRAMEWORK_ANSWERS: Record<string, { statusCode: number; message: string; fieldErrors?: FieldError[] }> = {
  FST_ERR_BAD_URL: { statusCode: 400, message: 'Adresse de la requête invalide : encodage en pourcentage incorrect.' },
  FST_ERR_MAX_PARAM_LENGTH: { statusCode: 400, message: 'Adresse de la requête invalide : paramètre trop long.' },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    statusCode: 400,
    message: 'Requête invalide : le corps n’est pas un JSON valide.',
    fieldErrors: [{ field: 'body', message: 'JSON invalide' }],
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    statusCode: 400,
    message: 'Requête invalide : le corps JSON est vide.',
    fieldErrors: [{ field: 'body', message: 'Corps de requête JSON obligatoire' }],
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { statusCode: 400, message: 'Requête invalide : la longueur annoncée ne correspond pas au corps reçu.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { statusCode: 415, message: 'Type de contenu non pris en charge : envoyez du JSON (Content-Type: application/json).' },
  // The pages' form parser has its own, smaller limit (the API's is server/plugins/body-limit.ts, with its size).
  FST_ERR_CTP_BODY_TOO_LARGE: { statusCode: 413, message: 'Requête trop volumineuse.' },
};

/** A French message for any other refusal that carries only a status (a library's English message is never shown). */
const STATUS_MESSAGES: Record<number, string> = {
  400: 'Requête invalide.',
  401: 'Authentification requise.',
  403: 'Accès refusé.',
  404: 'Ressource introuvable.',
  405: 'Méthode non autorisée.',
  406: 'Format de réponse non disponible.',
  408: 'Délai de la requête dépassé.',
  409: 'Conflit avec l’état actuel.',
  413: 'Requête trop volumineuse.',
  415: 'Type de contenu non pris en charge.',
  429: 'Trop de requêtes. Réessayez dans quelques instants.',
};

/**
 * Fastify's `frameworkErrors` option: what Fastify refuses before any route or hook (a path with malformed
 * percent-encoding, a parameter too long) gets the portal's body, its request id, and the x-request-id and
 * security headers the onSend hook would have set.
 */
export function frameworkErrorAnswer(securityHeaders: SecurityHeaders) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const answer = FRAMEWORK_ANSWERS[error.code] ?? { statusCode: 500, message: 'Erreur interne du serveur.' };
    if (answer.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    for (const [name, value] of securityHeaders.for(request.url)) reply.header(name, value);
    void reply
      .code(answer.statusCode)
      .header('x-request-id', request.id)
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(errorBody(answer.statusCode, answer.message, request.id, answer.fieldErrors)));
  };
}

/** Every error answer of the server, in one place: `{ error, message, fieldErrors?, requestId }`, never a stack trace. */
export function answerErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string; validation?: unknown[]; validationContext?: string }, request, reply) => {
    const answer = answerOf(error) ?? (error.code ? FRAMEWORK_ANSWERS[error.code] : undefined) ?? null;
    // A limit of the product says when to try again (server/features/audit/creation-limit.service.ts).
    const { retryAfterSeconds } = error as { retryAfterSeconds?: unknown };
    if (answer?.statusCode === 429 && typeof retryAfterSeconds === 'number') reply.header('retry-after', String(retryAfterSeconds));
    if (answer) return reply.code(answer.statusCode).send(errorBody(answer.statusCode, answer.message, request.id, answer.fieldErrors));
    if (Array.isArray(error.validation)) {
      const fieldErrors = fieldErrorsFromValidation(error.validation as never[], error.validationContext);
      const names = fieldErrors.map((f) => f.field).join(', ');
      return reply.code(400).send(errorBody(400, `Requête invalide : ${names}.`, request.id, fieldErrors));
    }
    // A serialization failure or a deadlock that its retry met again (server/plugins/database-errors.ts says why 409 and 503).
    const conflict = transactionConflictOf(error);
    if (conflict) request.log.warn({ err: error }, `transaction given up after its retry (${conflict})`);
    if (conflict === 'serialization') return reply.code(409).send(errorBody(409, TRANSACTION_CONFLICT_MESSAGE, request.id));
    if (conflict === 'deadlock' || isDatabaseUnavailable(error)) {
      // The database is stopped, restarting or unreachable, or a deadlock; a write committed whole or not at all: the client may retry.
      if (!conflict) request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send(errorBody(503, DATABASE_UNAVAILABLE_MESSAGE, request.id));
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send(errorBody(status, 'Erreur interne du serveur.', request.id));
    }
    return reply.code(status).send(errorBody(status, STATUS_MESSAGES[status] ?? STATUS_MESSAGES[400]!, request.id));
  });
}
