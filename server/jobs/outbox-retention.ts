// The runner's first job: SENT rows of the outbox hold the account set-up links they sent; they are deleted
// OUTBOX_RETENTION_DAYS (default 30) after they were sent. PENDING and FAILED rows are never (server/mail/outbox.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { purgeSentMail } from '../mail/outbox.ts';
import type { ScheduledJob } from './runner.ts';

const DAY_MS = 24 * 3600_000;

export function outboxRetentionJob({ db, retentionDays, batchSize }: { db: Kysely<Database>; retentionDays: number; batchSize?: number }): ScheduledJob {
  return {
    name: 'outbox.retention',
    everyMs: 3600_000,
    async run({ now, signal }) {
      const purged = await purgeSentMail(db, new Date(now.getTime() - retentionDays * DAY_MS), { signal, ...(batchSize ? { batchSize } : {}) });
      return { purged };
    },
  };
}
