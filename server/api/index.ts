import type { FastifyInstance } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import type { Services } from '../features/services.ts';
import { bearerAuth } from '../plugins/bearer-auth.ts';
import { registerApiDocs } from '../plugins/api-docs.ts';
import { auditHandlers } from './audit.ts';
import { homeHandlers } from './home.ts';
import { invitationsHandlers } from './invitations.ts';
import { documentForOperations, loadApiDocument } from './openapi-document.ts';
import { organizationsHandlers } from './organizations.ts';
import { retentionHandlers } from './retention.ts';
import { rolesHandlers } from './roles.ts';
import { usersHandlers } from './users.ts';
import { usersBulkHandlers } from './users-bulk.ts';
import { workflowsHandlers } from './workflows.ts';

/** A body of a type the API does not take: answered 415 by the error handler, as Fastify's own refusal. */
class FastifyContentTypeRefusal extends Error {
  readonly code = 'FST_ERR_CTP_INVALID_MEDIA_TYPE';
  readonly statusCode = 415;
  constructor() {
    super('Unsupported Media Type: text/csv');
  }
}

/** /api/v2 from the contract: each operation's handler by operationId, its request validated by the document. */
export async function registerApi(app: FastifyInstance, services: Services): Promise<void> {
  const handlers = {
    ...usersHandlers(services),
    ...usersBulkHandlers(services),
    ...organizationsHandlers(services),
    ...rolesHandlers(services),
    ...retentionHandlers(services),
    ...auditHandlers(services),
    ...invitationsHandlers(services),
    ...workflowsHandlers(services),
    ...homeHandlers(services),
  };
  const document = loadApiDocument();
  // The contract's CSV answers (the exports) make the glue look for a CSV body parser: the API takes no CSV in,
  // so a CSV body is refused as any body that is not JSON (415), and the glue has nothing to warn about.
  app.addContentTypeParser('text/csv', (_request, _payload, done) => done(new FastifyContentTypeRefusal(), undefined));
  await app.register(openapiGlue, {
    specification: documentForOperations(document, new Set(Object.keys(handlers))),
    serviceHandlers: handlers,
    securityHandlers: { bearerAuth },
  });
  // The contract as JSON and its rendering for integrators: public (bearer-auth.ts exempts exactly these routes).
  registerApiDocs(app, document);
}
