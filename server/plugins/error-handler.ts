import type { FastifyInstance } from 'fastify';
import { answerOf, errorBody, fieldErrorsFromValidation } from '../api/errors.ts';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from './database-errors.ts';

/** Every error answer of the server, in one place: `{ error, message, fieldErrors?, requestId }`, never a stack trace. */
export function answerErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: Error & { statusCode?: number; validation?: unknown[]; validationContext?: string }, request, reply) => {
    const answer = answerOf(error);
    if (answer) return reply.code(answer.statusCode).send(errorBody(answer.statusCode, answer.message, request.id, answer.fieldErrors));
    if (Array.isArray(error.validation)) {
      const fieldErrors = fieldErrorsFromValidation(error.validation as never[], error.validationContext);
      const names = fieldErrors.map((f) => f.field).join(', ');
      return reply.code(400).send(errorBody(400, `Requête invalide : ${names}.`, request.id, fieldErrors));
    }
    if (isDatabaseUnavailable(error)) {
      // The database is stopped, restarting or unreachable; a write committed whole or not at all: the client may retry.
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send(errorBody(503, DATABASE_UNAVAILABLE_MESSAGE, request.id));
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status === 401) return reply.code(401).send(errorBody(401, 'Authentification requise.', request.id));
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send(errorBody(status, 'Erreur interne du serveur.', request.id));
    }
    return reply.code(status).send(errorBody(status, error.message, request.id));
  });
}
