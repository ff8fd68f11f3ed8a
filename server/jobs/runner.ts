/**
 * The one runner of the product's scheduled jobs (declared in ./index.ts), started with the server.
 *
 * One node at a time: every node looks every pollMs at the jobs due, and runs one only after claiming its
 * row of scheduled_jobs with a single conditional UPDATE (due, and not under way — unless that run's lease
 * has passed), its row taken FOR UPDATE SKIP LOCKED. Two nodes claiming together: one statement wins, the
 * other sees the row taken (or locked) and goes on. No transaction stays open while a job runs (a job opens
 * its own), so it works alike on PostgreSQL and on PGlite's single connection; no advisory lock is needed.
 *
 * After a restart: a run whose process stopped leaves running_since set. Once its lease (leaseMs) has
 * passed, the next claim reports it (a warning naming the node, an 'interrupted' event) and runs the job again.
 * A lease must therefore be longer than the job's longest run. A finished run records its outcome, its error,
 * and the next run: everyMs after it started, or 5 minutes after a failure (sooner, never later, than everyMs).
 *
 * Time comes from `clock` (tests use a fake one, and call tick() themselves): the nodes' clocks are assumed
 * in step (NTP), as the leases and the due times are compared to each node's own.
 * Counted for /metrics through onRunFinished() and states().
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface JobLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** What a run receives. */
export interface JobContext {
  /** The runner's time at the start of this run. */
  now: Date;
  /** Aborted when the server stops: a long job ends early (the rest waits for its next run). */
  signal: AbortSignal;
  log: JobLog;
}

/** Counts of what a run did, e.g. { purged: 12 }: logged, and handed to the listeners. */
export type JobSummary = Record<string, number>;

export interface ScheduledJob {
  /** Unique, e.g. 'outbox.retention': the row of scheduled_jobs and the label of its metrics. */
  name: string;
  /** Time between two starts. */
  everyMs: number;
  /** How long a run may last before another node takes it for cut short (default 15 minutes). */
  leaseMs?: number;
  /** When the first run comes, from the first start of a server knowing this job (default at once). */
  firstRunAfterMs?: number;
  run(context: JobContext): Promise<JobSummary | void>;
}

export type JobOutcome = 'succeeded' | 'failed' | 'interrupted';

/** One run that ended ('interrupted': found cut short by a stopped process; durationMs: how long since it began). */
export interface JobRunEvent {
  job: string;
  outcome: JobOutcome;
  durationMs: number;
  summary?: JobSummary;
  error?: string;
}

export interface JobState {
  name: string;
  nextRunAt: Date;
  runningSince: Date | null;
  runningOwner: string | null;
  lastStartedAt: Date | null;
  lastFinishedAt: Date | null;
  lastOutcome: 'succeeded' | 'failed' | null;
  lastError: string | null;
}

/** Time and timers; the real ones by default, a fake one in tests. */
export interface JobClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface JobRunnerOptions {
  db: Kysely<Database>;
  jobs: readonly ScheduledJob[];
  log: JobLog;
  clock?: JobClock;
  /** Time between two looks at the due jobs (default 30 s). */
  pollMs?: number;
}

export interface JobRunner {
  /** Looks at once, then every pollMs, until stop(). */
  start(): void;
  /** No look any more; the run under way is aborted (its signal) and awaited. */
  stop(): Promise<void>;
  /** One look: claims and runs, one after the other, the jobs due; answers what ended. */
  tick(): Promise<JobRunEvent[]>;
  /** The state of each job this runner knows, in the order declared. */
  states(): Promise<JobState[]>;
  /** Called after each run (and for each run found cut short); answers a function that removes the listener. */
  onRunFinished(listener: (event: JobRunEvent) => void): () => void;
}

export const DEFAULT_LEASE_MS = 15 * 60_000;
export const RETRY_AFTER_FAILURE_MS = 5 * 60_000;

const realClock: JobClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, jobs, log } = options;
  const clock = options.clock ?? realClock;
  const pollMs = options.pollMs ?? 30_000;
  const names = new Set<string>();
  for (const job of jobs) {
    if (names.has(job.name)) throw new Error(`two scheduled jobs are named ${job.name}`);
    names.add(job.name);
  }
  const listeners = new Set<(event: JobRunEvent) => void>();
  const node = `${hostname()}:${process.pid}`;
  let registered: Promise<void> | null = null;
  let timer: unknown = null;
  let looking: Promise<unknown> | null = null;
  let stopped = true;
  let aborter = new AbortController();

  function tell(event: JobRunEvent): JobRunEvent {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        log.error({ job: event.job, err: messageOf(error) }, 'un observateur des tâches planifiées a échoué');
      }
    }
    return event;
  }

  /** A row for each job (a new job's first run: firstRunAfterMs from now); rows of jobs no longer declared stay. */
  function register(): Promise<void> {
    registered ??= (async () => {
      if (jobs.length === 0) return;
      const now = clock.now();
      await db
        .insertInto('scheduled_jobs')
        .values(jobs.map((job) => ({ name: job.name, next_run_at: new Date(now + (job.firstRunAfterMs ?? 0)) })))
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    })().catch((error: unknown) => {
      registered = null;
      throw error;
    });
    return registered;
  }

  /** The job's row, if it is due and free (or its run's lease has passed): answers the run cut short, if any. */
  async function claim(job: ScheduledJob, now: Date, owner: string) {
    const leaseEnd = new Date(now.getTime() - (job.leaseMs ?? DEFAULT_LEASE_MS));
    const { rows } = await sql<{ interrupted_since: Date | null; interrupted_owner: string | null }>`
      with free as (
        select name, running_since, running_owner from scheduled_jobs
         where name = ${job.name} and next_run_at <= ${now}
           and (running_since is null or running_since <= ${leaseEnd})
         for update skip locked)
      update scheduled_jobs j
         set running_since = ${now}, running_owner = ${owner}, last_started_at = ${now}
        from free
       where j.name = free.name
      returning free.running_since as interrupted_since, free.running_owner as interrupted_owner`.execute(db);
    return rows[0] ?? null;
  }

  async function runOne(job: ScheduledJob): Promise<JobRunEvent[]> {
    const now = new Date(clock.now());
    const owner = `${node}:${randomUUID().slice(0, 8)}`;
    const claimed = await claim(job, now, owner);
    if (!claimed) return [];
    const events: JobRunEvent[] = [];
    if (claimed.interrupted_since) {
      const since = new Date(claimed.interrupted_since);
      log.warn(
        { job: job.name, owner: claimed.interrupted_owner, since: since.toISOString() },
        'tâche planifiée interrompue (processus arrêté pendant son exécution) : elle est relancée',
      );
      events.push(tell({ job: job.name, outcome: 'interrupted', durationMs: now.getTime() - since.getTime() }));
    }
    let outcome: 'succeeded' | 'failed' = 'succeeded';
    let summary: JobSummary | undefined;
    let error: string | undefined;
    try {
      summary = (await job.run({ now, signal: aborter.signal, log })) ?? undefined;
    } catch (failure) {
      outcome = 'failed';
      error = messageOf(failure);
    }
    const end = clock.now();
    const durationMs = end - now.getTime();
    const next = outcome === 'failed' ? end + Math.min(job.everyMs, RETRY_AFTER_FAILURE_MS) : Math.max(now.getTime() + job.everyMs, end);
    const finished = await db
      .updateTable('scheduled_jobs')
      .set({ running_since: null, running_owner: null, last_finished_at: new Date(end), last_outcome: outcome, last_error: error ?? null, next_run_at: new Date(next) })
      .where('name', '=', job.name)
      .where('running_owner', '=', owner)
      .executeTakeFirst();
    if (Number(finished.numUpdatedRows) === 0) {
      log.warn({ job: job.name, owner, durationMs }, 'tâche planifiée plus longue que son bail : un autre nœud l’a reprise entre-temps');
    }
    if (outcome === 'failed') log.error({ job: job.name, durationMs, err: error }, 'tâche planifiée en échec');
    else log.info({ job: job.name, durationMs, ...summary }, 'tâche planifiée terminée');
    events.push(tell({ job: job.name, outcome, durationMs, ...(summary ? { summary } : {}), ...(error ? { error } : {}) }));
    return events;
  }

  async function tick(): Promise<JobRunEvent[]> {
    await register();
    const events: JobRunEvent[] = [];
    for (const job of jobs) {
      if (aborter.signal.aborted) break;
      events.push(...(await runOne(job)));
    }
    return events;
  }

  function schedule(delay: number) {
    if (stopped) return;
    timer = clock.setTimeout(() => {
      timer = null;
      looking = tick()
        .catch((error: unknown) => log.error({ err: messageOf(error) }, 'tour des tâches planifiées en échec'))
        .finally(() => {
          looking = null;
          schedule(pollMs);
        });
    }, delay);
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      aborter = new AbortController();
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      aborter.abort();
      await looking;
    },
    tick,
    async states() {
      if (jobs.length === 0) return [];
      await register();
      const rows = await db.selectFrom('scheduled_jobs').selectAll().where('name', 'in', [...names]).execute();
      const byName = new Map(rows.map((row) => [row.name, row]));
      return jobs.flatMap((job) => {
        const row = byName.get(job.name);
        if (!row) return [];
        return [
          {
            name: row.name,
            nextRunAt: new Date(row.next_run_at),
            runningSince: row.running_since && new Date(row.running_since),
            runningOwner: row.running_owner,
            lastStartedAt: row.last_started_at && new Date(row.last_started_at),
            lastFinishedAt: row.last_finished_at && new Date(row.last_finished_at),
            lastOutcome: row.last_outcome,
            lastError: row.last_error,
          },
        ];
      });
    },
    onRunFinished(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
