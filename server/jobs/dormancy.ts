// Dormant accounts on the runner (issue 23), three hourly jobs, each move decided by the account-lifecycle machine
// (server/features/users/users-dormancy.service.ts):
// - 'users.dormancy-warning': a person not signed in for DORMANCY_WARN_AFTER_DAYS is warned by e-mail (once), and the
//   back office told of a SIREN left without an active employer administrator;
// - 'users.dormancy-deactivation': DORMANCY_DEACTIVATE_AFTER_DAYS after the warning without a sign-in, the account is
//   deactivated as a person would deactivate it (journal entry by the portal, identity account disabled);
// - 'users.dormancy-deletion': DORMANCY_DELETE_AFTER_DAYS after that deactivation, the account is deleted by the
//   permanent delete itself; never a back-office account.
// Listed deletion first: an account is never moved twice in one pass.
import type { DormancyConfig } from '../config.ts';
import type { UsersDormancyService } from '../features/users/users-dormancy.service.ts';
import type { ScheduledJob } from './runner.ts';

const HOUR_MS = 3600_000;

export interface DormancyJobsDeps {
  dormancy: UsersDormancyService;
  config: DormancyConfig;
  batchSize?: number;
  /** Tests: the most accounts one run moves (DormancyRunOptions). */
  maxPerRun?: number;
}

export function dormancyJobs({ dormancy, config, batchSize, maxPerRun }: DormancyJobsDeps): ScheduledJob[] {
  const batch = { ...(batchSize ? { batchSize } : {}), ...(maxPerRun ? { maxPerRun } : {}) };
  return [
    {
      name: 'users.dormancy-deletion',
      everyMs: HOUR_MS,
      async run({ now, signal }) {
        const { moved, failed } = await dormancy.deleteDormantAccounts(now, config, { signal, ...batch });
        return { deleted: moved, failed };
      },
    },
    {
      name: 'users.dormancy-deactivation',
      everyMs: HOUR_MS,
      async run({ now, signal }) {
        const { moved, failed } = await dormancy.deactivateDormantAccounts(now, config, { signal, ...batch });
        return { deactivated: moved, failed };
      },
    },
    {
      name: 'users.dormancy-warning',
      everyMs: HOUR_MS,
      async run({ now, signal }) {
        return dormancy.warnDormantAccounts(now, config, { signal, ...batch });
      },
    },
  ];
}
