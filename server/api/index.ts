import type { FastifyInstance } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import type { Services } from '../features/services.ts';
import { bearerAuth } from '../plugins/bearer-auth.ts';
import { registerApiDocs } from '../plugins/api-docs.ts';
import { auditHandlers } from './audit.ts';
import { invitationsHandlers } from './invitations.ts';
import { documentForOperations, loadApiDocument } from './openapi-document.ts';
import { organizationsHandlers } from './organizations.ts';
import { rolesHandlers } from './roles.ts';
import { usersHandlers } from './users.ts';

/** /api/v2 from the contract: each operation's handler by operationId, its request validated by the document. */
export async function registerApi(app: FastifyInstance, services: Services): Promise<void> {
  const handlers = {
    ...usersHandlers(services),
    ...organizationsHandlers(services),
    ...rolesHandlers(services),
    ...auditHandlers(services),
    ...invitationsHandlers(services),
  };
  const document = loadApiDocument();
  await app.register(openapiGlue, {
    specification: documentForOperations(document, new Set(Object.keys(handlers))),
    serviceHandlers: handlers,
    securityHandlers: { bearerAuth },
  });
  // The contract as JSON and its rendering for integrators: public (bearer-auth.ts exempts exactly these routes).
  registerApiDocs(app, document);
}
