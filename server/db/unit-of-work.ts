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
 * Runs `work` in one transaction: whole or not at all. The hooks of the outcome run after it, each once; a
 * hook that fails is logged and the others still run; the work's own error is what the caller gets.
 */
export async function inTransaction<T>(db: Kysely<Database>, work: (uow: UnitOfWork) => Promise<T>, log?: StepLog): Promise<T> {
  const committed: Step[] = [];
  const rolledBack: Step[] = [];
  let result: T;
  try {
    result = await db.transaction().execute((trx) =>
      work({ trx, afterCommit: (step) => void committed.push(step), onRollback: (step) => void rolledBack.push(step) }),
    );
  } catch (error) {
    await runAll(rolledBack.reverse(), log);
    throw error;
  }
  await runAll(committed, log);
  return result;
}

async function runAll(steps: readonly Step[], log: StepLog | undefined): Promise<void> {
  for (const step of steps) {
    try {
      await step.run();
    } catch (error) {
      log?.error({ err: error, step: step.what, ...step.failure?.details }, step.failure?.message ?? `étape « ${step.what} » en échec`);
    }
  }
}
