// The reports of actions on many users are kept BULK_ACTIONS_RETENTION_DAYS (30) after they completed, then deleted
// every hour with their persons (names and e-mails as the starter saw them), a few jobs per statement, stopping
// between statements when the server stops. What each person underwent stays in the journal.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { BULK_ACTIONS_RETENTION_DAYS } from '../features/retention/retention.model.ts';
import { purgeBulkActions } from '../features/users/users-bulk.service.ts';
import { retentionJob } from './retention.ts';
import type { ScheduledJob } from './runner.ts';

export function bulkActionsRetentionJob({ db, batchSize }: { db: Kysely<Database>; batchSize?: number }): ScheduledJob {
  return retentionJob({
    name: 'bulk-actions.retention',
    retentionDays: BULK_ACTIONS_RETENTION_DAYS,
    purge: (before, signal) => purgeBulkActions(db, before, { signal, ...(batchSize ? { batchSize } : {}) }),
  });
}
