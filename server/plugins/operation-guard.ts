// The function-level refusal of every API operation, before the contract validates its input: a caller
// without the right gets 403 whatever the body, so a refused caller learns nothing from 400s. The decision
// of each operation is the server's policy (server/features/session/operations.policy.ts).
import type { FastifyRequest } from 'fastify';
import { requireMayCallOperation } from '../features/session/operations.policy.ts';

/** onRequest hook, after the token and the actor: before the body is read and the contract validates anything. */
export async function refuseOperationsNotAllowed(request: FastifyRequest): Promise<void> {
  const actor = request.actor;
  const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
  if (!actor || !operationId || !request.routeOptions.url?.startsWith('/api/')) return;
  requireMayCallOperation(actor, operationId, { params: (request.params ?? {}) as Record<string, unknown> });
}
