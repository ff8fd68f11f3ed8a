// A batch of persons of a deactivation or a reactivation on many users, in one unit of work: the starter's rights
// read once inside it, with what a change of them writes locked (such a change commits before the batch, which then
// refuses, or after it); each person decided by the single action's policy (requireStatusChangeOf), their rows
// locked and changed with one statement for the batch, one journal entry each as the single action writes it, each
// person's outcome written once, the identity directory told as the single action tells it. Whole or nothing: a
// batch that fails unexpectedly changes nobody, and its caller does its persons one by one (users-bulk.service.ts).
import type { Kysely } from 'kysely';
import type { Actor } from '../../core/actor.ts';
import { DomainError, unauthenticated } from '../../core/errors.ts';
import { requireActive } from '../../core/policy.ts';
import type { Database } from '../../db/schema.ts';
import { inTransaction, type StepLog, type UnitOfWork } from '../../db/unit-of-work.ts';
import { setAccountsEnabled, type IdentityDirectory } from '../../identity/directory.ts';
import { writeAudits } from '../audit/audit.repository.ts';
import { loadActor } from '../session/actor.repository.ts';
import { NO_PORTAL_ACCOUNT } from '../session/session.service.ts';
import { allowBatchStatements, claimPositions, lockPersons, lockStarterRights, readPersons, setPersonsActive, writeOutcomes, type BatchOutcome, type BatchPerson } from './users-bulk-batch.repository.ts';
import { personSeenBy, requireStatusChangeOf } from './users-bulk.policy.ts';
import type { BulkActionRow, BulkTarget } from './users-bulk.repository.ts';
import { loadAssignments, type AssignmentRecord } from './users-read.repository.ts';
import { byUserId } from './users-read.service.ts';
import { statusChangeRecord, userAuditEntry } from './users.model.ts';
import { requireCanChangeUsers } from './users.policy.ts';

/** What every request's hooks decide first (a portal account, an active one), as the starter of a job is now. */
export function requireStarterMayAct(actor: Actor | null): asserts actor is Actor {
  if (!actor) throw unauthenticated(NO_PORTAL_ACCOUNT);
  requireActive(actor);
}

/** The actions a batch does (the others: person by person, in the single action's own unit of work). */
export const BATCHED_ACTIONS: ReadonlySet<BulkActionRow['action']> = new Set(['deactivate', 'reactivate']);

/** The longest a statement of a batch may take (allowBatchStatements). */
const BATCH_STATEMENT_MS = 30_000;

interface Decided {
  person: BatchPerson;
  assignments: AssignmentRecord[];
}

export function statusBatchService(deps: { db: Kysely<Database>; directory: IdentityDirectory; log: StepLog; now: () => Date }) {
  const { db, directory, log } = deps;

  /** A refusal of every person of the batch (the starter may no longer act), or null. */
  function starterRefusal(actor: Actor | null): DomainError | null {
    try {
      requireStarterMayAct(actor);
      requireCanChangeUsers(actor);
      return null;
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  }

  /** The directory as the single action tells it; a remote one's changes put back if the commit fails. */
  async function tellDirectory(uow: UnitOfWork, done: readonly Decided[], wanted: boolean): Promise<void> {
    const userOf = new Map(done.flatMap(({ person }) => (person.auth_id ? [[person.auth_id, person.id] as const] : [])));
    await setAccountsEnabled(directory, uow.trx, [...userOf.keys()], wanted, (subject) => {
      uow.onRollback({
        what: wanted ? 'disableAccount' : 'enableAccount',
        run: () => (wanted ? directory.disableAccount(db, subject) : directory.enableAccount(db, subject)),
        failure: { message: "le compte de connexion n'a pas pu être remis dans son état précédent", details: { userId: userOf.get(subject) } },
      });
    });
  }

  /** The batch's persons (of a deactivation or a reactivation job), in one unit of work; throws when it failed unexpectedly. */
  return async function runStatusBatch(job: BulkActionRow, targets: readonly BulkTarget[]): Promise<void> {
    const wanted = job.action === 'reactivate';
    await inTransaction(
      db,
      async (uow) => {
        const { trx } = uow;
        await allowBatchStatements(trx, BATCH_STATEMENT_MS);
        const subject = await lockStarterRights(trx, job.actor_user_id);
        const actor = subject ? await loadActor(trx, subject) : null;
        const claimed = new Set(await claimPositions(trx, job.id, targets.map((t) => t.position)));
        const mine = targets.filter((t) => claimed.has(t.position));
        if (mine.length === 0) return;
        // The persons' rows locked (the starter's own, locked for share already, only read: they are refused).
        const ids = mine.map((t) => t.userId);
        const others = ids.filter((id) => id !== job.actor_user_id);
        const rows = [...(await lockPersons(trx, others)), ...(others.length < ids.length ? await readPersons(trx, [job.actor_user_id]) : [])];
        const persons = new Map(rows.map((p) => [p.id, p]));
        const assignments = byUserId(await loadAssignments(trx, [...persons.keys()]));
        const refusedAll = starterRefusal(actor);
        const outcomes: BatchOutcome[] = [];
        const done: Decided[] = [];
        for (const { position, userId } of mine) {
          const person = persons.get(userId);
          const held = assignments.get(userId) ?? [];
          try {
            if (refusedAll) throw refusedAll;
            done.push({ person: requireStatusChangeOf(actor!, person, held, wanted), assignments: held });
            outcomes.push({ position, outcome: 'succeeded' });
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            const seen = personSeenBy(actor, person, held);
            outcomes.push({ position, outcome: 'refused', reason: error.message, name: seen?.name ?? null, email: seen?.email ?? null });
          }
        }
        await setPersonsActive(
          trx,
          done.map(({ person }) => person.id),
          wanted,
          deps.now(),
        );
        await writeAudits(
          trx,
          done.map(({ person, assignments: held }) => ({
            ...userAuditEntry(actor!, person, held),
            action: wanted ? ('user.reactivate' as const) : ('user.deactivate' as const),
            changes: statusChangeRecord(person, wanted),
          })),
        );
        await writeOutcomes(trx, job.id, outcomes);
        // The identity provider last, just before commit, as the single action.
        await tellDirectory(uow, done, wanted);
      },
      log,
    );
  };
}
