// Actions on many users (startUsersBulkAction, getUsersBulkAction) and the work of their jobs. The request stores
// the job and its resolved selection and answers at once; a worker (server/jobs/bulk-actions-worker.ts, on every
// node) claims the job and works through it batch after batch. A deactivation or a reactivation does a batch of
// persons in one unit of work (users-bulk-batch.service.ts); the other actions, or a batch that failed unexpectedly,
// run the single action for each person, in the person's own unit of work, whose first statement writes the
// person's outcome. Either way a change and its outcome commit together or not at all, and a person whose outcome
// is written is never done again (after a restart, or by another node).
import { setImmediate as yieldToOthers } from 'node:timers/promises';
import type { DormancyConfig } from '../../config.ts';
import type { Kysely } from 'kysely';
import type { Actor } from '../../core/actor.ts';
import { DomainError } from '../../core/errors.ts';
import { deleteInBatches } from '../../db/batches.ts';
import type { Database } from '../../db/schema.ts';
import { inTransaction, type StepLog } from '../../db/unit-of-work.ts';
import type { IdentityDirectory } from '../../identity/directory.ts';
import { loadActor } from '../session/actor.repository.ts';
import { BATCHED_ACTIONS, requireStarterMayAct, statusBatchService } from './users-bulk-batch.service.ts';
import { bulkActionCommand, type BulkActionBody } from './users-bulk.input.ts';
import { isUniqueViolation } from './users.errors.ts';
import { BULK_MESSAGES, MAX_PERSON_FAILURES, MAX_SELECTION_BY_FILTERS, personSeenBy, requireBulkActionStarter, requireNoRunningJob, requireCanStartBulkAction, requireSelectionWithinLimit } from './users-bulk.policy.ts';
import {
  claimJob,
  completeJob,
  countFiltered,
  deleteJobsFinishedBefore,
  findJob,
  hasRunningJob,
  insertJobWithFilter,
  insertJobWithIds,
  jobProgress,
  pendingTargets,
  recordFailure,
  recordOutcome,
  releaseLease,
  renewLease,
  starterSubject,
  type BulkActionRow,
  type BulkProgress,
  type BulkTarget,
} from './users-bulk.repository.ts';
import { findUser, loadAssignments } from './users-read.repository.ts';
import { userFilterFor } from './users-read.service.ts';
import type { PersonStep } from './users.model.ts';
import type { UsersService } from './users.service.ts';

/** A job as getUsersBulkAction answers it. */
export type BulkActionView = BulkActionRow & BulkProgress;

/** What a worker's run of a job came to: done, stopped (the server stops), or taken by another node meanwhile. */
export type JobRunOutcome = 'completed' | 'stopped' | 'lost';

export interface JobRunOptions {
  owner: string;
  leaseMs: number;
  signal: AbortSignal;
  /** Persons of a batch: one unit of work for a deactivation or a reactivation; for the other actions, persons read per statement. */
  batchSize: number;
  /**
   * Persons done side by side for the actions done one by one (PGlite's one connection runs them in turn). The
   * batches run one after the other: two side by side write the same shared counters (the search's grams, the
   * list's name ranges) in different orders and deadlock; one batch at a time is set-based and fast enough.
   */
  concurrency: number;
  /** Told after each person (tests, metrics). */
  onPerson?: () => void;
}

/** The person's outcome was written already (by another run of the job): their unit of work is dropped. */
class PersonAlreadyDone extends Error {}

type SingleActions = Pick<UsersService, 'setActive' | 'deletePermanently' | 'resendInvitation'>;

export function usersBulkService(deps: { db: Kysely<Database>; directory: IdentityDirectory; log: StepLog; now: () => Date; dormancy: DormancyConfig }, single: SingleActions) {
  const { db, log } = deps;
  const listeners = new Set<() => void>();
  const runStatusBatch = statusBatchService(deps);

  /** The starter as they are now: their rights are those of the moment each person is done. */
  async function starter(job: BulkActionRow): Promise<Actor | null> {
    const subject = await starterSubject(db, job.actor_user_id);
    return subject ? loadActor(db, subject) : null;
  }

  /** The person's name and e-mail if the starter may read them (else the report names nobody). */
  async function seenPerson(actor: Actor | null, userId: string): Promise<{ name: string; email: string } | null> {
    if (!actor) return null;
    const found = await findUser(db, userId);
    return found ? personSeenBy(actor, found, await loadAssignments(db, [userId])) : null;
  }

  /**
   * One person, exactly as the single action (its policy, its unit of work, its journal entry), once, with the
   * starter's rights read again for this person: a starter deactivated, or whose role was removed, while the job
   * runs acts on nobody after that (security review).
   */
  async function processPerson(job: BulkActionRow, target: BulkTarget): Promise<void> {
    const actor = await starter(job);
    const step: PersonStep = {
      refuseUnchanged: true,
      claim: async (trx) => {
        if (!(await recordOutcome(trx, job.id, target.position, { outcome: 'succeeded' }))) throw new PersonAlreadyDone();
      },
    };
    try {
      requireStarterMayAct(actor);
      if (job.action === 'deactivate') await single.setActive(actor, target.userId, false, undefined, log, step);
      else if (job.action === 'reactivate') await single.setActive(actor, target.userId, true, undefined, log, step);
      else if (job.action === 'resendInvitation') await single.resendInvitation(actor, target.userId, log, step);
      else await single.deletePermanently(actor, target.userId, undefined, log, step);
    } catch (error) {
      if (error instanceof PersonAlreadyDone) return;
      if (error instanceof DomainError) return refuse(job, target, actor, error.message);
      // Unforeseen (the database refusing this change, the identity provider failing for this account): counted,
      // the person tried again with the job's next batch, and reported after MAX_PERSON_FAILURES so that one person
      // never holds the job back. Counting fails too when the database is gone: the job is then let go, as before.
      const failures = await recordFailure(db, job.id, target.position);
      log.error({ err: error, bulkActionId: job.id, userId: target.userId, failures }, "l'action groupée a échoué pour une personne");
      if (failures >= MAX_PERSON_FAILURES) await refuse(job, target, actor, BULK_MESSAGES.unexpectedFailure);
    }
  }

  /**
   * A batch in one unit of work. When it fails unexpectedly (a person's change refused by the database, the identity
   * provider failing), nothing of it was written: its persons are done one by one, each failure counted for its
   * person alone, so that one bad person never holds the others back.
   */
  async function processBatch(job: BulkActionRow, batch: readonly BulkTarget[], options: JobRunOptions): Promise<void> {
    try {
      await runStatusBatch(job, batch);
      for (let i = 0; i < batch.length; i += 1) options.onPerson?.();
    } catch (error) {
      log.error({ err: error, bulkActionId: job.id, persons: batch.length }, "un lot de l'action groupée a échoué : ses personnes sont faites une à une");
      for (const target of batch) {
        if (options.signal.aborted) return;
        await processPerson(job, target);
        options.onPerson?.();
      }
    }
  }

  async function refuse(job: BulkActionRow, target: BulkTarget, actor: Actor | null, reason: string): Promise<void> {
    const seen = await seenPerson(actor, target.userId);
    await recordOutcome(db, job.id, target.position, { outcome: 'refused', reason, name: seen?.name ?? null, email: seen?.email ?? null });
  }

  return {
    /** startUsersBulkAction: the job and its selection stored, the workers told; nothing done to anyone yet. */
    async start(actor: Actor, body: BulkActionBody): Promise<BulkActionView> {
      requireCanStartBulkAction(actor, body.action);
      const { action, selection } = bulkActionCommand(body);
      requireNoRunningJob(await hasRunningJob(db, actor.userId));
      let job: BulkActionRow;
      try {
        if (selection.kind === 'ids') {
          job = await inTransaction(db, ({ trx }) => insertJobWithIds(trx, actor.userId, action, selection.userIds), log);
        } else {
          // The list's rights, reach and filters (404 for an organization out of reach), then its size.
          const filter = await userFilterFor(db, actor, selection.filters, { now: deps.now(), warnAfterDays: deps.dormancy.warnAfterDays });
          requireSelectionWithinLimit(await countFiltered(db, filter, MAX_SELECTION_BY_FILTERS + 1));
          job = await inTransaction(db, ({ trx }) => insertJobWithFilter(trx, actor.userId, action, filter), log);
        }
      } catch (error) {
        // Two starts of one person at the same moment: the second meets the first's running job (migration 0018).
        requireNoRunningJob(isUniqueViolation(error, 'bulk_actions_one_running_idx'));
        throw error;
      }
      for (const listener of listeners) listener();
      return { ...job, processed: 0, succeeded: 0, refusals: [] };
    },

    /** getUsersBulkAction: the starter's job, its progress as the database holds it. */
    async get(actor: Actor, id: string): Promise<BulkActionView> {
      const job = requireBulkActionStarter(actor, await findJob(db, id));
      return { ...job, ...(await jobProgress(db, id)) };
    },

    /** Told when a job starts on this node (its worker looks at once rather than at its next round). */
    onStarted(listener: () => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    /** An unfinished job no node works on, now this owner's for leaseMs. */
    claim: (owner: string, leaseMs: number) => claimJob(db, owner, leaseMs),

    /**
     * Works through a claimed job, batch after batch, `concurrency` persons at a time, yielding to the other
     * requests after each person, renewing the lease after each batch. Stops between two persons when `signal`
     * is aborted (the persons under way are finished), letting the job go.
     */
    async run(job: BulkActionRow, options: JobRunOptions): Promise<JobRunOutcome> {
      for (;;) {
        if (options.signal.aborted) {
          await releaseLease(db, job.id, options.owner);
          return 'stopped';
        }
        // A round: one batch of a deactivation or a reactivation, else batchSize persons one by one, `concurrency` at a time.
        const batched = BATCHED_ACTIONS.has(job.action);
        const size = Math.max(1, options.batchSize);
        const targets = await pendingTargets(db, job.id, size);
        if (targets.length === 0) {
          // Every person done (here or by another run): completed, once.
          await completeJob(db, job.id);
          return 'completed';
        }
        const units = batched ? [targets] : targets.map((t) => [t]);
        let next = 0;
        const lane = async () => {
          while (next < units.length && !options.signal.aborted) {
            const unit = units[next]!;
            next += 1;
            if (batched) await processBatch(job, unit, options);
            else {
              await processPerson(job, unit[0]!);
              options.onPerson?.();
            }
            await yieldToOthers();
          }
        };
        const lanes = await Promise.allSettled(Array.from({ length: batched ? 1 : Math.max(1, options.concurrency) }, lane));
        const failed = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
        if (failed) throw failed.reason;
        if (!(await renewLease(db, job.id, options.owner, options.leaseMs))) return 'lost';
      }
    },

    /** Lets a job go after a failure of this node's run: it is claimed again at the next round. */
    release: (job: BulkActionRow, owner: string) => releaseLease(db, job.id, owner),
  };
}

export type UsersBulkService = ReturnType<typeof usersBulkService>;

/** Deletes the jobs completed before `before` with their persons, `batchSize` jobs at a time, until none is left or `signal` is aborted; answers how many. */
export async function purgeBulkActions(db: Kysely<Database>, before: Date, { batchSize = 10, signal }: { batchSize?: number; signal?: AbortSignal } = {}): Promise<number> {
  return deleteInBatches((limit) => deleteJobsFinishedBefore(db, before, limit), { batchSize, signal });
}
