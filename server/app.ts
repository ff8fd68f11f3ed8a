// Builds the whole server (API, local sign-in, SPA) without listening: start scripts and tests share it.
// Only the order lives here: the hooks of every request, the routes, the pages. Each part is a plugin of
// server/plugins/, the API is server/api/, the use cases server/features/.
import { runtimeConfigFor } from './runtime-config.ts';
import { registerCompression } from './plugins/compression.ts';
import { readFileSync } from 'node:fs';
import type { Http2SecureServer } from 'node:http2';
import Fastify, { type FastifyHttp2SecureOptions, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ServerConfig } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { ListTotals } from './db/list-totals.ts';
import { createHitCounter } from './db/rate-limit-hits.ts';
import type { TokenVerifier, VerifiedToken } from './identity/token-verifier.ts';
import type { TlsMaterial } from './tls.ts';
import { LocalIdentityDirectory, type IdentityDirectory } from './identity/directory.ts';
import { configureAccountSetup } from './identity/account-setup-links.ts';
import { countOutbox, createOutbox } from './mail/outbox.ts';
import { createMailDelivery } from './mail/delivery.ts';
import { buildServices } from './features/services.ts';
import { registerApi } from './api/index.ts';
import { authenticateApiRequests } from './plugins/bearer-auth.ts';
import { loadActorForApiRequests } from './plugins/actor.ts';
import { refuseNulCharacters } from './plugins/input-guard.ts';
import { refuseOperationsNotAllowed } from './plugins/operation-guard.ts';
import { databaseFormats, refuseNonFiniteNumbers, refuseUnvalidatedBodies } from './plugins/validation-gaps.ts';
import { serializeRequest } from './plugins/logging.ts';
import { securityHeadersFor } from './plugins/security-headers.ts';
import { registerApiCors } from './plugins/cors.ts';
import { registerApiRateLimit } from './plugins/rate-limit.ts';
import { limitListsInFlight } from './plugins/list-concurrency.ts';
import { refuseOversizedBodies, SELECTION_BODY_LIMIT_BYTES } from './plugins/body-limit.ts';
import { refuseRequestsWhileClosing } from './plugins/closing.ts';
import { answerErrors, frameworkErrorAnswer } from './plugins/error-handler.ts';
import { registerHealth } from './plugins/health.ts';
import { serveWeb } from './plugins/web.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { requestIdFor, traceBindingsOf } from './plugins/tracing.ts';
import { createMetrics, type PortalMetrics } from './observability/metrics.ts';
import { createJobRunner, type JobClock, type JobRunner } from './jobs/runner.ts';
import { scheduledJobs } from './jobs/index.ts';
import { createBulkActionsWorker, type BulkActionsWorker } from './jobs/bulk-actions-worker.ts';
import type { ExpiredRowsPurge } from './jobs/expired-rows.ts';
import type { SigningKeys } from './dev-idp/signing-keys.ts';
import type { DemoAccountLine } from './dev-idp/pages.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: VerifiedToken | null;
  }
  interface FastifyInstance {
    /** The app's metrics (GET /metrics): parts started beside the app (the job runner) count in them too. */
    metrics: PortalMetrics;
    /** The scheduled jobs (server/jobs/): their states, and onRunFinished for the metrics. */
    jobs: JobRunner;
    /** The worker of the actions on many users (server/jobs/bulk-actions-worker.ts). */
    bulkActions: BulkActionsWorker;
  }
}

/** The portal's version, as package.json says (in the metrics). */
const PORTAL_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

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
  /**
   * Runs the scheduled jobs (server/jobs/) from onReady to onClose: main.ts does. Off by default, as tests build
   * many apps on databases of their own; app.jobs is there either way.
   */
  runJobs?: boolean;
  /** Tests: the job runner's clock and timers. */
  jobClock?: JobClock;
  /**
   * Works through the actions on many users from onReady to onClose (default on). Tests that drive the worker
   * themselves (app.bulkActions.drain()) turn it off.
   */
  runBulkActions?: boolean;
  /** The worker's batches (tests: small ones, to see what happens between two): persons per batch, batches side by side. */
  bulkBatches?: { batchSize?: number; concurrency?: number };
}

export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, database } = deps;
  const securityHeaders = securityHeadersFor(config);
  const options: FastifyServerOptions = {
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: { req: serializeRequest },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    // The caller's x-request-id when well formed (a load balancer's), else a new one; a traceparent's ids in the log lines.
    genReqId: requestIdFor,
    childLoggerFactory: (logger, bindings, childOptions, rawRequest) => logger.child({ ...bindings, ...traceBindingsOf(rawRequest) }, childOptions),
    // The client's address (rate limits, sign-in throttle, logs) from X-Forwarded-For, only through the proxies configured.
    // A number of hops is supported at run time (fastify/lib/request.js), though missing from the option's type.
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    // The largest of the operations' limits; refuseOversizedBodies holds each operation to its own.
    bodyLimit: SELECTION_BODY_LIMIT_BYTES,
    // Requests arriving while the server closes get the portal's own 503 (plugins/closing.ts), not Fastify's English one.
    return503OnClosing: false,
    // What Fastify refuses before any route (a malformed percent-encoding in the path) gets the portal's error body.
    frameworkErrors: frameworkErrorAnswer(securityHeaders),
    ajv: {
      // Unknown body fields are refused, never silently dropped.
      customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: true },
      onCreate: databaseFormats,
    },
  };
  // On TLS, HTTP/2 (HTTP/1.1 still answered: load balancers' health checks, scripts). Measured by npm run bench:web
  // (issue 18): the first screen's requests share one connection instead of six handshakes, mobile FCP 2.5 → 1.8 s.
  const app = (
    deps.tls
      ? // The options are the same; only their type names the HTTP/1 server.
        Fastify({ ...options, http2: true, https: { key: deps.tls.key, cert: deps.tls.cert, allowHTTP1: true } } as unknown as FastifyHttp2SecureOptions<Http2SecureServer>)
      : Fastify(options)
  ) as unknown as FastifyInstance;

  if (!deps.directory && config.auth.kind !== 'local') throw new Error('an identity directory is needed for this identity provider');
  const smtpUrl = config.mail.smtpUrl;
  const services = buildServices({
    db: database.db,
    directory: deps.directory ?? new LocalIdentityDirectory(),
    listTotals: new ListTotals(),
    // Without SMTP_URL the e-mails stay in the outbox table, each announced in the log once committed.
    outbox: createOutbox(smtpUrl ? null : app.log),
    accountSetupUrl: configureAccountSetup({ publicOrigin: config.publicOrigin, provider: config.auth.kind, secret: deps.signingKeys?.accountSetupSecret ?? null }),
    publicOrigin: config.publicOrigin,
    log: app.log,
    creationLimits: config.creationLimits,
    requests: config.requests,
    retention: config,
    dormancy: config.dormancy,
    // The job runner's clock in tests: expiry is decided on the time the jobs see.
    now: deps.jobClock ? () => new Date(deps.jobClock!.now()) : () => new Date(),
  });

  // The counts every node shares (the API rate limit, the sign-in throttle); their expired rows (and the local
  // provider's, below) are deleted by a scheduled job.
  const hits = createHitCounter(database.db);
  const expiredRowPurges: ExpiredRowsPurge[] = [(batch) => hits.purgeExpired(batch)];
  const metrics = createMetrics({ version: PORTAL_VERSION, log: app.log });
  metrics.readFrom({ pool: database.poolStats ? () => database.poolStats!() : undefined, outbox: () => countOutbox(database.db) });
  app.decorate('metrics', metrics);

  // Every request: decorations, then the hooks in the order they run.
  app.decorateRequest('principal', null);
  app.decorateRequest('actor', null);
  refuseRequestsWhileClosing(app);
  await registerApiCors(app, config.publicOrigin);
  // Before the token check: requests with a refused token count too (per client address).
  await registerApiRateLimit(app, { perMinute: config.apiRateLimitPerMinute, verifyToken: deps.verifyToken, hits });
  app.addHook('onRequest', authenticateApiRequests(deps.verifyToken, (reason) => metrics.tokenRejected(reason)));
  app.addHook('onRequest', loadActorForApiRequests(services.session));
  // The operation's function-level right, before anything of the input (size, JSON, contract) is judged.
  app.addHook('onRequest', refuseOperationsNotAllowed);
  // At most 8 list requests and one export of one person in flight (per node, server/plugins/list-concurrency.ts).
  limitListsInFlight(app, config.listsInFlightPerPerson);
  app.addHook('preParsing', refuseOversizedBodies);
  app.addHook('preValidation', refuseNulCharacters);
  // What the contract refuses and Fastify's validation lets through (server/plugins/validation-gaps.ts).
  app.addHook('preValidation', refuseUnvalidatedBodies);
  app.addHook('preHandler', refuseNonFiniteNumbers);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    for (const [name, value] of securityHeaders.for(request.url)) if (!reply.hasHeader(name)) reply.header(name, value);
  });
  answerErrors(app);
  // The API's JSON answers compressed above 1 kB (br or gzip, as accepted).
  await registerCompression(app);

  // The routes: health and metrics, the API, the local provider (development and tests), the SPA.
  registerHealth(app, config, database);
  registerMetrics(app, metrics, config.metricsToken);
  await registerApi(app, services);
  if (smtpUrl) {
    const delivery = createMailDelivery({ db: database.db, smtpUrl, from: config.mail.from, log: app.log.child({ component: 'mail' }) });
    app.addHook('onReady', async () => delivery.start());
    app.addHook('onClose', async () => delivery.stop());
  }
  const jobs = createJobRunner({
    db: database.db,
    // The list is read at each run: the local provider's purge is added below.
    jobs: scheduledJobs({
      db: database.db,
      outboxRetentionDays: config.outboxRetentionDays,
      auditRetentionDays: config.auditRetentionDays,
      expiredRowPurges,
      requests: config.requests,
      publicOrigin: config.publicOrigin,
      dormancy: { service: services.dormancy, config: config.dormancy },
    }),
    log: app.log.child({ component: 'jobs' }),
    ...(deps.jobClock ? { clock: deps.jobClock } : {}),
  });
  app.decorate('jobs', jobs);
  jobs.onRunFinished(({ job, outcome, durationMs }) => metrics.jobFinished({ job, outcome, seconds: durationMs / 1000 }));
  if (deps.runJobs) {
    app.addHook('onReady', async () => jobs.start());
    // Once the server has closed, before main.ts closes the database: the run under way is aborted and awaited.
    app.addHook('onClose', async () => jobs.stop());
  }
  const bulkActions = createBulkActionsWorker({ bulk: services.bulkActions, log: app.log.child({ component: 'bulk-actions' }), ...deps.bulkBatches });
  app.decorate('bulkActions', bulkActions);
  services.bulkActions.onStarted(() => bulkActions.wake());
  if (deps.runBulkActions ?? true) {
    app.addHook('onReady', async () => bulkActions.start());
    // Before main.ts closes the database: the person under way is finished, the job let go for the next start.
    app.addHook('onClose', async () => bulkActions.stop());
  }
  if (config.auth.kind === 'local') {
    if (!deps.signingKeys) throw new Error('the local identity provider needs its signing keys');
    // Loaded only with the local provider: a deployment with B2C, Entra or another provider never loads oidc-provider.
    const [{ createLocalProvider, mountLocalProvider }, { purgeExpiredOidcPayloads }] = await Promise.all([
      import('./dev-idp/local-provider.ts'),
      import('./dev-idp/oidc-adapter.ts'),
    ]);
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
      // The local mailbox shows every e-mail, set-up links included: never in production, whatever else is allowed.
      devMailbox: !config.production,
      onSignInFailure: (reason) => metrics.signInFailed(reason),
      hits,
    });
    expiredRowPurges.push((batch) => purgeExpiredOidcPayloads(database.db, { batch }));
  }
  await serveWeb(app, config.webRoot, runtimeConfigFor(config));
  return app;
}

