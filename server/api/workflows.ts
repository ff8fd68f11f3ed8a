import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../features/services.ts';
import { actorOf } from '../plugins/actor.ts';
import { sendCsv } from './csv.ts';

type FiguresRequest = FastifyRequest<{ Params: { workflowId: string }; Querystring: { days?: number } }>;

export function workflowsHandlers({ workflows }: Services) {
  return {
    /** GET /api/v2/workflows/{workflowId}/figures: the figures drawn on the machine's chart, within the caller's scope. */
    async getWorkflowFigures(request: FiguresRequest) {
      return workflows.figures(actorOf(request), request.params.workflowId, request.query.days);
    },

    /** GET /api/v2/workflows/{workflowId}/figures/export: the same figures as a CSV file. */
    async exportWorkflowFigures(request: FiguresRequest, reply: FastifyReply) {
      return sendCsv(reply, await workflows.figuresCsv(actorOf(request), request.params.workflowId, request.query.days));
    },
  };
}
