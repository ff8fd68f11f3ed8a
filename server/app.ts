import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import openapiGlue from 'fastify-openapi-glue';
import type { ServerConfig } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { TokenVerifier, VerifiedToken } from './identity/token-verifier.ts';
import type { TlsMaterial } from './tls.ts';
import { ApiError, errorBody, fieldErrorsFromValidation } from './api/errors.ts';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from './plugins/database-errors.ts';
import { documentForOperations, loadApiDocument } from './api/openapi-document.ts';
import { authenticateApiRequests, bearerAuth } from './plugins/bearer-auth.ts';
import { loadActorForApiRequests } from './plugins/actor.ts';
import { refuseNulCharacters } from './plugins/input-guard.ts';
import { databaseFormats, refuseNonFiniteNumbers, refuseUnvalidatedBodies } from './plugins/validation-gaps.ts';
import { serializeRequest } from './plugins/logging.ts';
import { securityHeadersFor } from './plugins/security-headers.ts';
import { registerApiCors } from './plugins/cors.ts';
import { registerApiRateLimit } from './plugins/rate-limit.ts';
import { BODY_LIMIT_BYTES, refuseOversizedBodies } from './plugins/body-limit.ts';
import { usersHandlers } from './api/users.ts';
import { organizationsHandlers } from './api/organizations.ts';
import { rolesHandlers } from './api/roles.ts';
import { auditHandlers } from './api/audit.ts';
import { registerApiDocs } from './plugins/api-docs.ts';
import type { SigningKeys } from './dev-idp/signing-keys.ts';
import type { DemoAccountLine } from './dev-idp/pages.ts';
import { LocalIdentityDirectory, type IdentityDirectory } from './identity/directory.ts';
import { invitationsHandlers } from './api/invitations.ts';
import { configureAccountSetup } from './dev-idp/account-setup.ts';
import { logEnqueuedMailTo } from './mail/outbox.ts';
import { createMailDelivery } from './mail/delivery.ts';
import type { HandlerDeps } from './api/deps.ts';
import { runtimeConfigFor } from './runtime-config.ts';
import { ListTotals } from './db/list-totals.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: VerifiedToken | null;
  }
}

export interface AppDependencies {
  config: ServerConfig;
  database: DatabaseHandle;
  verifyToken: TokenVerifier;
  /** The local provider's keys, when the local provider is on. */
  signingKeys: SigningKeys | null;
  tls: TlsMaterial | null;
  /** The identity provider's accounts; the local provider's table by default. */
  directory?: IdentityDirectory;
  /** Listed on the local sign-in page when the demo data is loaded. */
  demoAccounts?: readonly DemoAccountLine[];
  /** Where the log goes instead of standard output (tests read it). */
  logStream?: { write(line: string): void };
}

export const SERVER_CLOSING_MESSAGE = 'Le serveur redémarre. Réessayez dans quelques instants.';

/** Builds the whole server (API, local sign-in, SPA) without listening: start scripts and tests share it. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, database } = deps;
  const options: FastifyServerOptions & { https?: { key: string; cert: string } } = {
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: { req: serializeRequest },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    genReqId: () => randomUUID(),
    // The client's address (rate limits, sign-in throttle, logs) from X-Forwarded-For, only through the proxies configured.
    // A number of hops is supported at run time (fastify/lib/request.js), though missing from the option's type.
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    bodyLimit: BODY_LIMIT_BYTES,
    // Requests arriving while the server closes get the portal's own 503 (below), not Fastify's English one.
    return503OnClosing: false,
    ajv: {
      // Unknown body fields are refused, never silently dropped.
      customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: true },
      onCreate: databaseFormats,
    },
  };
  if (deps.tls) options.https = { key: deps.tls.key, cert: deps.tls.cert };
  const app = Fastify(options) as unknown as FastifyInstance;

  app.decorateRequest('principal', null);
  app.decorateRequest('actor', null);
  // Closing (SIGTERM, server/main.ts): requests still arriving on kept-alive connections are refused, in French,
  // and their connection closed, while those already taken finish.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    return reply.code(503).header('connection', 'close').header('retry-after', '5').send(errorBody(503, SERVER_CLOSING_MESSAGE, request.id));
  });
  await registerApiCors(app, config.publicOrigin);
  // Before the token check: requests with a refused token count too (per client address).
  await registerApiRateLimit(app, { perMinute: config.apiRateLimitPerMinute, verifyToken: deps.verifyToken });
  app.addHook('onRequest', authenticateApiRequests(deps.verifyToken));
  app.addHook('onRequest', loadActorForApiRequests(database.db));
  app.addHook('preParsing', refuseOversizedBodies);
  app.addHook('preValidation', refuseNulCharacters);
  // What the contract refuses and Fastify's validation lets through (server/plugins/validation-gaps.ts).
  app.addHook('preValidation', refuseUnvalidatedBodies);
  app.addHook('preHandler', refuseNonFiniteNumbers);
  const securityHeaders = securityHeadersFor(config);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    for (const [name, value] of securityHeaders.for(request.url)) if (!reply.hasHeader(name)) reply.header(name, value);
  });

  app.setErrorHandler((error: Error & { statusCode?: number; validation?: unknown[]; validationContext?: string }, request, reply) => {
    if (error instanceof ApiError) {
      return reply.code(error.statusCode).send(errorBody(error.statusCode, error.message, request.id, error.fieldErrors));
    }
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

  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'not ready', reason: 'database unreachable' });
    }
  });
  app.get('/portal-config.json', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return runtimeConfigFor(config);
  });

  if (!deps.directory && config.auth.kind !== 'local') throw new Error('an identity directory is needed for this identity provider');
  const handlerDeps: HandlerDeps = { db: database.db, directory: deps.directory ?? new LocalIdentityDirectory(), listTotals: new ListTotals() };
  configureAccountSetup({ publicOrigin: config.publicOrigin, provider: config.auth.kind, secret: deps.signingKeys?.accountSetupSecret ?? null });
  startMailDelivery(app, config, database);
  const handlers = { ...usersHandlers(handlerDeps), ...organizationsHandlers(handlerDeps), ...rolesHandlers(handlerDeps), ...auditHandlers(handlerDeps), ...invitationsHandlers(handlerDeps) };
  const document = loadApiDocument();
  await app.register(openapiGlue, {
    specification: documentForOperations(document, new Set(Object.keys(handlers))),
    serviceHandlers: handlers,
    securityHandlers: { bearerAuth },
  });
  // The contract as JSON and its rendering for integrators: public (bearer-auth.ts exempts exactly these routes).
  registerApiDocs(app, document);

  if (config.auth.kind === 'local') {
    if (!deps.signingKeys) throw new Error('the local identity provider needs its signing keys');
    // Loaded only with the local provider: a deployment with B2C, Entra or another provider never loads oidc-provider.
    const { createLocalProvider, mountLocalProvider } = await import('./dev-idp/local-provider.ts');
    const provider = createLocalProvider({
      issuer: `${config.publicOrigin}/oidc`,
      clientId: config.auth.clientId,
      publicOrigin: config.publicOrigin,
      postLogoutRedirectUris: [config.publicSiteUrl],
      keys: deps.signingKeys,
      db: database.db,
    });
    await mountLocalProvider(app, provider, {
      db: database.db,
      securityHeaders,
      demoAccounts: deps.demoAccounts ?? [],
      accountSetupSecret: deps.signingKeys.accountSetupSecret,
    });
  }

  const indexFile = path.join(config.webRoot, 'index.html');
  const hasWeb = fs.existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webRoot,
      index: 'index.html',
      // The build writes a .br and a .gz beside each text asset (scripts/precompress.ts): sent as they are.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const pathname = url.split('?')[0] ?? '';
    // A page of the SPA (it draws its own 404): a GET for HTML, outside the API and the provider, without a file extension.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !/^\/(api|oidc)(\/|$)/.test(pathname) &&
      !/\.[a-z0-9]+$/i.test(pathname) &&
      /html|\*\/\*/.test(request.headers.accept ?? '*/*');
    if (hasWeb && isPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send(errorBody(404, `Aucune ressource à ${request.method} ${url.split('?')[0]}.`, request.id));
  });

  return app;
}

/**
 * E-mails of the outbox: sent by a delivery loop while the server runs when SMTP_URL is set;
 * otherwise written to the log as they are enqueued, and kept in the outbox table.
 */
function startMailDelivery(app: FastifyInstance, config: ServerConfig, database: DatabaseHandle): void {
  const smtpUrl = config.mail.smtpUrl;
  logEnqueuedMailTo(smtpUrl ? null : app.log);
  if (!smtpUrl) return;
  const delivery = createMailDelivery({ db: database.db, smtpUrl, from: config.mail.from, log: app.log.child({ component: 'mail' }) });
  app.addHook('onReady', async () => delivery.start());
  app.addHook('onClose', async () => delivery.stop());
}
