// The journal's retention: entries older than AUDIT_RETENTION_DAYS (default 365) are deleted every hour, in
// batches (short statements; the entries' organizations go with them), stopping between batches when the
// server stops. The rest waits for the next run.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { purgeJournal } from '../features/audit/audit-retention.service.ts';
import { retentionJob } from './retention.ts';
import type { ScheduledJob } from './runner.ts';

export function auditRetentionJob({ db, retentionDays, batchSize }: { db: Kysely<Database>; retentionDays: number; batchSize?: number }): ScheduledJob {
  return retentionJob({ name: 'audit.retention', retentionDays, purge: (before, signal) => purgeJournal(db, before, { signal, ...(batchSize ? { batchSize } : {}) }) });
}
