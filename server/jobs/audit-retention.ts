// The journal's retention: entries older than AUDIT_RETENTION_DAYS (default 365) are deleted every hour, in
// batches (short statements; the entries' organizations go with them), stopping between batches when the
// server stops. The rest waits for the next run.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { purgeJournal } from '../features/audit/audit-retention.service.ts';
import type { ScheduledJob } from './runner.ts';

const DAY_MS = 24 * 3600_000;

export function auditRetentionJob({ db, retentionDays, batchSize }: { db: Kysely<Database>; retentionDays: number; batchSize?: number }): ScheduledJob {
  return {
    name: 'audit.retention',
    everyMs: 3600_000,
    async run({ now, signal }) {
      const purged = await purgeJournal(db, new Date(now.getTime() - retentionDays * DAY_MS), { signal, ...(batchSize ? { batchSize } : {}) });
      return { purged };
    },
  };
}
