// Dormant accounts (issue 23), what the portal does by itself on its scheduled jobs (server/jobs/dormancy.ts), each
// move asked of the account-lifecycle machine (rules/account-lifecycle.machine.ts) first:
// - warning: an active person who has not signed in (nor been created or reactivated) for warnAfterDays is told by
//   e-mail, once, and the back office when that leaves a SIREN without an active administrator; batches, each one
//   unit of work with its e-mails;
// - deactivation, deactivateAfterDays after the warning without a sign-in: the manual deactivation itself
//   (users-edit.service.ts setActive: the journal entry, written without an author as the requests' expiry, the
//   identity account disabled and its sessions ended), by the portal;
// - deletion, deleteAfterDays after the portal's deactivation: the manual permanent delete itself
//   (users-edit.service.ts deletePermanently), by the portal; never a back-office account.
// A step whose days are 0 is off, and the steps after it with it (each counts from the one before).
import type { Transaction } from 'kysely';
import { nextAccountState, type AccountLifecycleEvent, type AccountState } from '../../../rules/account-lifecycle.machine.ts';
import type { DormancyConfig } from '../../config.ts';
import { SYSTEM_ACTOR } from '../../core/actor.ts';
import type { Database } from '../../db/schema.ts';
import { inTransaction, type StepLog } from '../../db/unit-of-work.ts';
import { dormancyWarningMail, unmanagedSirenMail } from '../../mail/dormancy-templates.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { frenchDate } from '../exports/csv.model.ts';
import { backOfficeDeciders } from '../invitations/invitations-lifecycle.repository.ts';
import type { ServiceDeps } from '../services.ts';
import {
  claimDormancyDeactivation,
  clearAnsweredSirenNotices,
  deactivatedBefore,
  lockDormancyDeletion,
  markDormancyWarnings,
  recordUnmanagedSirens,
  warnedBefore,
  type DueRow,
} from './users-dormancy.repository.ts';
import type { UsersService } from './users.service.ts';
import { DAY_MS, daysBefore } from '../../core/time.ts';

const daysAfter = (moment: Date, days: number) => new Date(moment.getTime() + days * DAY_MS);

export interface DormancyRunOptions {
  signal?: AbortSignal;
  batchSize?: number;
  /**
   * The most accounts one run moves (default: 10,000 warnings, 1,000 deactivations or deletions): a first run on a
   * large database spreads its backlog over the following hourly runs instead of outliving its lease.
   */
  maxPerRun?: number;
}

/** The machine's answer, or an error: a job never makes a move the machine refuses. */
function requireMove(from: AccountState, event: AccountLifecycleEvent, to: AccountState): void {
  const reached = nextAccountState(from, event);
  if (reached !== to) throw new Error(`the account-lifecycle machine refuses ${event.type} from ${from}`);
}

/** Thrown inside a person's unit of work when the account is no longer due (signed in, reactivated meanwhile): nothing is written. */
class NoLongerDue extends Error {}

export function usersDormancyService(deps: ServiceDeps, users: Pick<UsersService, 'setActive' | 'deletePermanently'>) {
  const { db } = deps;

  /**
   * Each due account in turn, in keyset batches, each in its own unit of work; answers how many moved, and how many
   * failed (logged: an identity directory unavailable…; tried again on the next run, the others go on).
   */
  async function eachDue(
    read: (after: { since: Date; id: string } | null, limit: number) => Promise<DueRow[]>,
    move: (row: DueRow) => Promise<void>,
    { signal, batchSize = 200, maxPerRun = 1_000 }: DormancyRunOptions,
    log: StepLog,
  ): Promise<{ moved: number; failed: number }> {
    let moved = 0;
    let failed = 0;
    let after: { since: Date; id: string } | null = null;
    while (!signal?.aborted && moved < maxPerRun) {
      const rows = await read(after, Math.min(batchSize, maxPerRun - moved));
      for (const row of rows) {
        if (signal?.aborted) break;
        try {
          await move(row);
          moved += 1;
        } catch (error) {
          if (error instanceof NoLongerDue) continue;
          failed += 1;
          log.error({ userId: row.id, err: error }, "le compte inactif n'a pas pu être traité ; nouvel essai au prochain passage");
        }
      }
      if (rows.length < batchSize) break;
      const last = rows[rows.length - 1]!;
      after = { since: last.since, id: last.id };
    }
    return { moved, failed };
  }

  return {
    /** Warns the accounts whose first period has passed; tells the back office of the SIRENs left without an administrator. */
    async warnDormantAccounts(now: Date, config: DormancyConfig, { signal, batchSize = 500, maxPerRun = 10_000 }: DormancyRunOptions = {}): Promise<{ warned: number; sirens: number }> {
      if (config.warnAfterDays === 0) return { warned: 0, sirens: 0 };
      const cutoff = daysBefore(now, config.warnAfterDays);
      const deactivatesOn = config.deactivateAfterDays === 0 ? null : frenchDate(daysAfter(now, config.deactivateAfterDays));
      await clearAnsweredSirenNotices(db);
      let warned = 0;
      let sirens = 0;
      while (!signal?.aborted && warned < maxPerRun) {
        const limit = Math.min(batchSize, maxPerRun - warned);
        const batch = await inTransaction(db, async ({ trx }) => {
          const rows = await markDormancyWarnings(trx, cutoff, now, limit);
          for (const row of rows) {
            requireMove('active', { type: 'account.warn', now: now.getTime(), dueAt: daysAfter(row.activity, config.warnAfterDays).getTime() }, 'dormantWarned');
            const mail = { email: row.email, firstName: row.first_name, lastName: row.last_name, everSignedIn: row.last_login_at !== null };
            await enqueueMail(trx, dormancyWarningMail({ ...mail, inactiveSince: frenchDate(row.activity), deactivatesOn }));
          }
          return { count: rows.length, sirens: await tellUnmanagedSirens(trx, rows.map((r) => r.id), now, config.warnAfterDays) };
        });
        warned += batch.count;
        sirens += batch.sirens;
        if (batch.count < limit) break;
      }
      return { warned, sirens };
    },

    /** Deactivates the warned accounts not signed in within the second period, as a person would, by the portal. */
    async deactivateDormantAccounts(now: Date, config: DormancyConfig, options: DormancyRunOptions = {}, log: StepLog = deps.log): Promise<{ moved: number; failed: number }> {
      if (config.warnAfterDays === 0 || config.deactivateAfterDays === 0) return { moved: 0, failed: 0 };
      const cutoff = daysBefore(now, config.deactivateAfterDays);
      return eachDue(
        (after, limit) => warnedBefore(db, cutoff, after, limit),
        async (row) => {
          const claim = async (trx: Transaction<Database>) => {
            const warnedAt = await claimDormancyDeactivation(trx, row.id, cutoff, now);
            if (!warnedAt) throw new NoLongerDue();
            const by = { kind: 'system' as const, now: now.getTime(), dueAt: daysAfter(warnedAt, config.deactivateAfterDays).getTime() };
            requireMove('dormantWarned', { type: 'account.deactivate', by }, 'deactivated');
          };
          await users.setActive(SYSTEM_ACTOR, row.id, false, undefined, log, { claim, refuseUnchanged: true });
        },
        options,
        log,
      );
    },

    /** Deletes permanently the accounts the portal deactivated a third period ago, as the back office would; never a back-office account. */
    async deleteDormantAccounts(now: Date, config: DormancyConfig, options: DormancyRunOptions = {}, log: StepLog = deps.log): Promise<{ moved: number; failed: number }> {
      if (config.warnAfterDays === 0 || config.deactivateAfterDays === 0 || config.deleteAfterDays === 0) return { moved: 0, failed: 0 };
      const cutoff = daysBefore(now, config.deleteAfterDays);
      return eachDue(
        (after, limit) => deactivatedBefore(db, cutoff, after, limit),
        async (row) => {
          if (row.is_back_office) throw new NoLongerDue();
          const claim = async (trx: Transaction<Database>) => {
            const due = await lockDormancyDeletion(trx, row.id, cutoff);
            if (!due) throw new NoLongerDue();
            const by = { kind: 'system' as const, now: now.getTime(), dueAt: daysAfter(due.since, config.deleteAfterDays).getTime() };
            if (nextAccountState('deactivated', { type: 'account.delete', by, isBackOfficeAccount: due.isBackOffice }) !== 'deleted') throw new NoLongerDue();
          };
          await users.deletePermanently(SYSTEM_ACTOR, row.id, undefined, log, { claim, refuseUnchanged: false });
        },
        options,
        log,
      );
    },
  };

  /** One e-mail to each active back-office user holding USER_CREATE per SIREN newly left without an administrator. */
  async function tellUnmanagedSirens(trx: Transaction<Database>, warnedIds: readonly string[], now: Date, warnAfterDays: number): Promise<number> {
    const unmanaged = await recordUnmanagedSirens(trx, warnedIds, now);
    if (unmanaged.length === 0) return 0;
    const recipients = await backOfficeDeciders(trx);
    for (const siren of unmanaged) {
      for (const recipient of recipients) {
        await enqueueMail(trx, unmanagedSirenMail({ recipient, organizationName: siren.name, sirenCode: siren.code, administrators: siren.administrators, warnAfterDays }));
      }
    }
    return unmanaged.length;
  }
}

export type UsersDormancyService = ReturnType<typeof usersDormancyService>;
