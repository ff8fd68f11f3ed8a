// Every scheduled job of the product, in one place: the runner (./runner.ts) runs them, each on one node at a
// time. To add one, write it in a file of this folder (a ScheduledJob: name, everyMs, run) and list it here.
import type { Kysely } from 'kysely';
import type { DormancyConfig, RequestLifecycleConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { outboxRetentionJob } from './outbox-retention.ts';
import { auditRetentionJob } from './audit-retention.ts';
import { auditBackfillJob } from './audit-backfill.ts';
import { auditOrganizationActionsJob } from './audit-organization-actions.ts';
import { searchBackfillJob } from './search-backfill.ts';
import { bulkActionsRetentionJob } from './bulk-actions-retention.ts';
import { expiredRowsJob, type ExpiredRowsPurge } from './expired-rows.ts';
import { requestLifecycleJobs } from './invitation-lifecycle.ts';
import { dormancyJobs } from './dormancy.ts';
import type { UsersDormancyService } from '../features/users/users-dormancy.service.ts';
import type { ScheduledJob } from './runner.ts';

export interface JobsDeps {
  db: Kysely<Database>;
  /** OUTBOX_RETENTION_DAYS */
  outboxRetentionDays: number;
  /** AUDIT_RETENTION_DAYS */
  auditRetentionDays: number;
  /** What the expired rows job deletes: the shared counts', and the local provider's payloads when it runs. */
  expiredRowPurges: readonly ExpiredRowsPurge[];
  /** INVITATION_EXPIRY_DAYS, REMINDER_PENDING_DAYS, REMINDER_BEFORE_EXPIRY_DAYS (defaults 30, 7, 3). */
  requests?: RequestLifecycleConfig;
  /** The portal's origin, for the links of the reminders. */
  publicOrigin?: string;
  /** Dormant accounts: the service that moves them, and DORMANCY_*_DAYS. None: no dormancy jobs. */
  dormancy?: { service: UsersDormancyService; config: DormancyConfig };
}

const DEFAULT_REQUESTS: RequestLifecycleConfig = { expiryDays: 30, reminderPendingDays: 7, reminderBeforeExpiryDays: 3 };

export function scheduledJobs(deps: JobsDeps): ScheduledJob[] {
  return [
    outboxRetentionJob({ db: deps.db, retentionDays: deps.outboxRetentionDays }),
    expiredRowsJob({ purges: deps.expiredRowPurges }),
    bulkActionsRetentionJob({ db: deps.db }),
    auditRetentionJob({ db: deps.db, retentionDays: deps.auditRetentionDays }),
    auditBackfillJob({ db: deps.db }),
    auditOrganizationActionsJob({ db: deps.db }),
    searchBackfillJob({ db: deps.db }),
    // The expiry before the reminders: a request past its period is never told it will expire.
    ...requestLifecycleJobs({ db: deps.db, requests: deps.requests ?? DEFAULT_REQUESTS, listUrl: `${deps.publicOrigin ?? ''}/admin` }),
    ...(deps.dormancy ? dormancyJobs({ dormancy: deps.dormancy.service, config: deps.dormancy.config }) : []),
  ];
}
