// Every scheduled job of the product, in one place: the runner (./runner.ts) runs them, each on one node at a
// time. To add one, write it in a file of this folder (a ScheduledJob: name, everyMs, run) and list it here.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { outboxRetentionJob } from './outbox-retention.ts';
import { auditRetentionJob } from './audit-retention.ts';
import { bulkActionsRetentionJob } from './bulk-actions-retention.ts';
import { expiredRowsJob, type ExpiredRowsPurge } from './expired-rows.ts';
import type { ScheduledJob } from './runner.ts';

export interface JobsDeps {
  db: Kysely<Database>;
  /** OUTBOX_RETENTION_DAYS */
  outboxRetentionDays: number;
  /** AUDIT_RETENTION_DAYS */
  auditRetentionDays: number;
  /** What the expired rows job deletes: the shared counts', and the local provider's payloads when it runs. */
  expiredRowPurges: readonly ExpiredRowsPurge[];
}

export function scheduledJobs(deps: JobsDeps): ScheduledJob[] {
  return [
    outboxRetentionJob({ db: deps.db, retentionDays: deps.outboxRetentionDays }),
    expiredRowsJob({ purges: deps.expiredRowPurges }),
    bulkActionsRetentionJob({ db: deps.db }),
    auditRetentionJob({ db: deps.db, retentionDays: deps.auditRetentionDays }),
  ];
}
