import type { FastifyInstance } from 'fastify';
import { errorBody } from '../api/errors.ts';

export const SERVER_CLOSING_MESSAGE = 'Le serveur redémarre. Réessayez dans quelques instants.';

/**
 * Closing (SIGTERM, server/main.ts): requests still arriving on kept-alive connections are refused, in French,
 * and their connection closed, while those already taken finish.
 */
export function refuseRequestsWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    return reply.code(503).header('connection', 'close').header('retry-after', '5').send(errorBody(503, SERVER_CLOSING_MESSAGE, request.id));
  });
}
