// The runner's first job: SENT rows of the outbox hold the account set-up links they sent; they are deleted
// OUTBOX_RETENTION_DAYS (default 30) after they were sent. PENDING and FAILED rows are never (server/mail/outbox.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { purgeSentMail } from '../mail/outbox.ts';
import { retentionJob } from './retention.ts';
import type { ScheduledJob } from './runner.ts';

export function outboxRetentionJob({ db, retentionDays, batchSize }: { db: Kysely<Database>; retentionDays: number; batchSize?: number }): ScheduledJob {
  return retentionJob({ name: 'outbox.retention', retentionDays, purge: (before, signal) => purgeSentMail(db, before, { signal, ...(batchSize ? { batchSize } : {}) }) });
}
