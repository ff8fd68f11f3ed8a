// What an operator watches (GET /metrics, Prometheus text format, prom-client): requests by route and status
// with their durations, 5xx and 429 answers, the database pool, the event loop's lag (Node's default metrics),
// the outbox, refused sign-ins and tokens, the scheduled jobs. One registry per app: nothing shared between
// two apps of one process (tests build many).
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the gauges read when scraped; each may be absent (PGlite has no pool). */
export interface MetricsSources {
  /** Connections of the PostgreSQL pool; null on PGlite (one connection, no pool). */
  pool?: () => { total: number; idle: number; waiting: number } | null;
  /** E-mails of the outbox not sent yet, and those given up. */
  outbox?: () => Promise<{ pending: number; failed: number }>;
}

export interface PortalMetrics {
  readonly registry: Registry;
  /** An answer sent: its route (the route's pattern, never the raw URL), method, status and duration. */
  observeRequest(answer: { method: string; route: string; status: number; seconds: number }): void;
  /** A sign-in refused by the local provider (wrong password, unknown or disabled account, throttled). */
  signInFailed(reason: 'credentials' | 'throttled'): void;
  /** An API request whose bearer token was missing, invalid or expired. */
  tokenRejected(reason: 'missing' | 'invalid'): void;
  /** A scheduled job's run that ended. */
  jobFinished(run: { job: string; outcome: 'succeeded' | 'failed' | 'interrupted'; seconds: number }): void;
  /** The gauges' sources, given once the parts that own them exist. */
  readFrom(sources: MetricsSources): void;
}

export function createMetrics(options: { version: string; log?: { warn(object: object, message: string): void } }): PortalMetrics {
  const registry = new Registry();
  // process_*, nodejs_* (nodejs_version_info with the runtime's version, nodejs_eventloop_lag_* seconds, heap, GC).
  collectDefaultMetrics({ register: registry });
  const sources: MetricsSources = {};

  new Gauge({
    name: 'portail_build_info',
    help: 'The portal running: its version and the Node.js version (always 1).',
    labelNames: ['version', 'node'],
    registers: [registry],
  }).set({ version: options.version, node: process.version }, 1);

  const requests = new Counter({
    name: 'portail_http_requests_total',
    help: 'HTTP answers sent, by route pattern, method and status code.',
    labelNames: ['method', 'route', 'status_code'],
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'portail_http_request_duration_seconds',
    help: 'Time from a request’s arrival to its answer, by route pattern, method and status code.',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const serverErrors = new Counter({
    name: 'portail_http_server_errors_total',
    help: 'Answers with a 5xx status, by route pattern.',
    labelNames: ['route'],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'portail_http_rate_limited_total',
    help: 'Answers 429 (too many requests), by route pattern.',
    labelNames: ['route'],
    registers: [registry],
  });
  const signInFailures = new Counter({
    name: 'portail_sign_in_failures_total',
    help: 'Sign-ins refused by the local provider: wrong credentials, or too many attempts.',
    labelNames: ['reason'],
    registers: [registry],
  });
  const tokenRejections = new Counter({
    name: 'portail_token_rejections_total',
    help: 'API requests refused for their bearer token (missing, or invalid and expired ones).',
    labelNames: ['reason'],
    registers: [registry],
  });
  const jobRuns = new Counter({
    name: 'portail_job_runs_total',
    help: 'Runs of the scheduled jobs that ended, by job and outcome (succeeded, failed, or interrupted by a stopped node).',
    labelNames: ['job', 'outcome'],
    registers: [registry],
  });
  const jobDurations = new Histogram({
    name: 'portail_job_run_duration_seconds',
    help: 'Duration of the scheduled jobs’ runs, by job.',
    labelNames: ['job'],
    buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [registry],
  });
  for (const reason of ['credentials', 'throttled']) signInFailures.inc({ reason }, 0);
  for (const reason of ['missing', 'invalid']) tokenRejections.inc({ reason }, 0);

  new Gauge({
    name: 'portail_db_pool_connections',
    help: 'Connections of the PostgreSQL pool, in use or idle (absent on PGlite).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.reset();
      const pool = sources.pool?.();
      if (!pool) return;
      this.set({ state: 'in_use' }, pool.total - pool.idle);
      this.set({ state: 'idle' }, pool.idle);
    },
  });
  new Gauge({
    name: 'portail_db_pool_waiting_requests',
    help: 'Queries waiting for a connection of the PostgreSQL pool (absent on PGlite).',
    registers: [registry],
    collect() {
      this.reset();
      const pool = sources.pool?.();
      if (pool) this.set(pool.waiting);
    },
  });
  new Gauge({
    name: 'portail_outbox_messages',
    help: 'E-mails of the outbox waiting to be sent (pending) or given up after their attempts (failed).',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      if (!sources.outbox) return;
      try {
        const counts = await sources.outbox();
        this.set({ status: 'pending' }, counts.pending);
        this.set({ status: 'failed' }, counts.failed);
      } catch (error) {
        // Left out of this scrape (an alert on its absence tells the database is out of reach).
        options.log?.warn({ err: error }, 'metrics: the outbox could not be counted');
      }
    },
  });

  return {
    registry,
    observeRequest({ method, route, status, seconds }) {
      const labels = { method, route, status_code: String(status) };
      requests.inc(labels);
      durations.observe(labels, seconds);
      if (status >= 500) serverErrors.inc({ route });
      if (status === 429) rateLimited.inc({ route });
    },
    signInFailed(reason) {
      signInFailures.inc({ reason });
    },
    tokenRejected(reason) {
      tokenRejections.inc({ reason });
    },
    jobFinished({ job, outcome, seconds }) {
      jobRuns.inc({ job, outcome });
      // An interrupted run's time is only the time since it began on a node that stopped: not a duration.
      if (outcome !== 'interrupted') jobDurations.observe({ job }, seconds);
    },
    readFrom(given) {
      Object.assign(sources, given);
    },
  };
}
