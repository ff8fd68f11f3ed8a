/**
 * Works through the jobs of actions on many users (POST /api/v2/users/bulk-actions), on every node, from the
 * server's start to its close. A node takes one job at a time by claiming it (FOR UPDATE SKIP LOCKED, with a
 * lease renewed after each batch), so two nodes never work on one job together; each person's outcome
 * is written in the unit of work that changes them (their batch's, or their own), so a person is never done twice
 * nor half (users-bulk.service.ts).
 *
 * It looks at once when a job starts on its node, and every pollMs otherwise (a job started on another node, or
 * left unfinished by a node that stopped: a stopping node lets its job go at once; one that died, once its lease
 * has passed). Between two batches (or two persons) it yields to the other requests; stop() ends the run after the
 * batch (or the persons) under way.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { UsersBulkService } from '../features/users/users-bulk.service.ts';
import type { JobLog } from './runner.ts';

export interface BulkActionsWorkerOptions {
  bulk: UsersBulkService;
  log: JobLog;
  /** Time between two looks when nothing is to do (default 5 s). */
  pollMs?: number;
  /** How long a claimed job stays this node's without a renewal (default 2 minutes). */
  leaseMs?: number;
  /** Persons per batch: one transaction for a deactivation or a reactivation; read per statement for the others (default 100: since migration 0030's statement triggers a batch's UPDATE costs little more than one of 50, and 10,000 deactivations beside the read load went from 31.2 s to 20.3 s at 1M users). */
  batchSize?: number;
  /** Persons done side by side for the actions done one by one (default 4; PostgreSQL's pool runs them together, PGlite in turn); batches run one at a time. */
  concurrency?: number;
}

export interface BulkActionsWorker {
  start(): void;
  /** No new job; the run under way stops after its batch (or persons) under way, lets its job go, and is awaited. */
  stop(): Promise<void>;
  /** Looks now rather than at the next round. */
  wake(): void;
  /** Runs the jobs there are, one after the other, until none is left (tests; answers how many runs ended). */
  drain(signal?: AbortSignal): Promise<number>;
  /** Called after each person done by this node (tests); answers a function that removes the listener. */
  onPerson(listener: () => void): () => void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

export function createBulkActionsWorker(options: BulkActionsWorkerOptions): BulkActionsWorker {
  const { bulk, log } = options;
  const pollMs = options.pollMs ?? 5_000;
  const leaseMs = options.leaseMs ?? 120_000;
  const batchSize = options.batchSize ?? 100;
  const concurrency = options.concurrency ?? 4;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const listeners = new Set<() => void>();
  let aborter = new AbortController();
  let loop: Promise<void> | null = null;
  /** Ends the current pause between two rounds (a job started here, or the server stopping). */
  let endPause: () => void = () => undefined;
  /** A wake that came during a round: the next round starts without a pause. */
  let woken = false;

  const onPerson = () => {
    for (const listener of listeners) listener();
  };

  /** One job: claimed, worked through; false when there was none. */
  async function once(signal: AbortSignal): Promise<boolean> {
    const job = await bulk.claim(owner, leaseMs);
    if (!job) return false;
    const started = Date.now();
    try {
      const outcome = await bulk.run(job, { owner, leaseMs, signal, batchSize, concurrency, onPerson });
      log.info({ job: job.id, action: job.action, total: job.total, outcome, durationMs: Date.now() - started }, 'action groupée : fin de passage');
    } catch (error) {
      log.error({ job: job.id, err: messageOf(error) }, 'action groupée en échec : elle sera reprise');
      await bulk.release(job, owner).catch(() => undefined);
      throw error;
    }
    return true;
  }

  async function drain(signal: AbortSignal): Promise<number> {
    let runs = 0;
    while (!signal.aborted && (await once(signal))) runs += 1;
    return runs;
  }

  /** pollMs, or less if woken or stopped. */
  function pause(signal: AbortSignal): Promise<void> {
    if (woken || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => endPause(), pollMs);
      timer.unref();
      endPause = () => {
        clearTimeout(timer);
        endPause = () => undefined;
        resolve();
      };
    });
  }

  async function rounds(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      woken = false;
      await drain(signal).catch((error: unknown) => log.error({ err: messageOf(error) }, 'tour des actions groupées en échec'));
      await pause(signal);
    }
  }

  return {
    start() {
      if (loop) return;
      aborter = new AbortController();
      loop = rounds(aborter.signal);
    },
    async stop() {
      aborter.abort();
      endPause();
      await loop;
      loop = null;
    },
    wake() {
      woken = true;
      endPause();
    },
    drain: (signal) => drain(signal ?? new AbortController().signal),
    onPerson(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
