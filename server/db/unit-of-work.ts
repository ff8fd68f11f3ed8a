// One unit of work: a transaction, and what must happen only once it committed (e-mails announced, a remote
// account deleted) or only if it did not (a remote identity directory put back as it was: it cannot roll
// back with the database). Services open it; repositories receive its transaction and speak SQL.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

export interface Step {
  /** Names the step in the log when it fails. */
  what: string;
  run: () => void | Promise<void>;
  /** Logged, with `details`, when the step fails (a failed step never changes the outcome of the work). */
  failure?: { message: string; details?: object };
}

export interface UnitOfWork {
  readonly trx: Transaction<Database>;
  /** Runs once the transaction committed, in the order registered. */
  afterCommit(step: Step): void;
  /** Runs when the transaction did not commit (the work failed, or the commit did), last registered first. */
  onRollback(step: Step): void;
}

export interface StepLog {
  error(details: object, message: string): void;
}

/**
 * SQLSTATEs of a transaction PostgreSQL gave up on because of another one (40001 serialization_failure, 40P01
 * deadlock_detected): nothing of it was written, and the same work run again usually succeeds.
 */
const RETRIED_SQLSTATES = new Set(['40001', '40P01']);

/** Attempts of one unit of work: the first, and one retry after a serialization failure or a deadlock. */
const ATTEMPTS = 2;

function isRetriedConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRIED_SQLSTATES.has(code);
}

/**
 * Runs `work` in one transaction: whole or not at all. The hooks of the outcome run after it, each once; a
 * hook that fails is logged and the others still run; the work's own error is what the caller gets.
 *
 * A serialization failure or a deadlock (40001, 40P01) runs the whole work again once, in a new transaction
 * with its steps registered anew: the first attempt's onRollback steps (a remote account created, a remote
 * change) are undone first, its afterCommit steps never run. If one of those undo steps failed, the work is
 * not run again (the remote state is no longer known). A second failure reaches the caller unchanged, with
 * its SQLSTATE, which the error handler answers (409 or 503, server/plugins/database-errors.ts), never 500.
 */
export async function inTransaction<T>(db: Kysely<Database>, work: (uow: UnitOfWork) => Promise<T>, log?: StepLog): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const committed: Step[] = [];
    const rolledBack: Step[] = [];
    let result: T;
    try {
      result = await db.transaction().execute((trx) =>
        work({ trx, afterCommit: (step) => void committed.push(step), onRollback: (step) => void rolledBack.push(step) }),
      );
    } catch (error) {
      const undone = await runAll(rolledBack.reverse(), log);
      if (undone && attempt < ATTEMPTS && isRetriedConflict(error)) continue;
      throw error;
    }
    await runAll(committed, log);
    return result;
  }
}

/** Runs every step, in order; true when none failed. */
async function runAll(steps: readonly Step[], log: StepLog | undefined): Promise<boolean> {
  let allRan = true;
  for (const step of steps) {
    try {
      await step.run();
    } catch (error) {
      allRan = false;
      log?.error({ err: error, step: step.what, ...step.failure?.details }, step.failure?.message ?? `étape « ${step.what} » en échec`);
    }
  }
  return allRan;
}
