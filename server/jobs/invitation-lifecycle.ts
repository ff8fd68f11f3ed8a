// The requests' lifecycle on the runner (issue 22), three jobs:
// - 'invitations.expiry', every 5 minutes (an index range of the pending requests, usually empty): pending requests
//   older than INVITATION_EXPIRY_DAYS become EXPIRED soon after their period ends (a decision checks the period too,
//   so nothing waits for this job to be refused);
// - 'invitations.expiry-reminder', hourly: a requester is told, once, REMINDER_BEFORE_EXPIRY_DAYS before their
//   request expires;
// - 'invitations.pending-digest', hourly, sending once a day (Europe/Paris): the back office's digest of the
//   requests pending for more than REMINDER_PENDING_DAYS.
// Every e-mail goes through the outbox, in the transaction that records it was sent.
import type { Kysely } from 'kysely';
import type { RequestLifecycleConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { expireDueRequests, remindRequestersBeforeExpiry, sendPendingDigest } from '../features/invitations/invitations-lifecycle.service.ts';
import type { ScheduledJob } from './runner.ts';

const HOUR_MS = 3600_000;

export interface RequestJobsDeps {
  db: Kysely<Database>;
  requests: RequestLifecycleConfig;
  /** Where the digest sends the back office: the requests' list (…/admin). */
  listUrl: string;
  batchSize?: number;
}

export function requestLifecycleJobs({ db, requests, listUrl, batchSize }: RequestJobsDeps): ScheduledJob[] {
  const batch = batchSize ? { batchSize } : {};
  return [
    {
      name: 'invitations.expiry',
      everyMs: 5 * 60_000,
      async run({ now, signal }) {
        return { expired: await expireDueRequests(db, now, requests.expiryDays, { signal, ...batch }) };
      },
    },
    {
      name: 'invitations.expiry-reminder',
      everyMs: HOUR_MS,
      async run({ now, signal }) {
        const options = { expiryDays: requests.expiryDays, beforeDays: requests.reminderBeforeExpiryDays };
        return { reminded: await remindRequestersBeforeExpiry(db, now, options, { signal, ...batch }) };
      },
    },
    {
      name: 'invitations.pending-digest',
      everyMs: HOUR_MS,
      async run({ now }) {
        return sendPendingDigest(db, now, { pendingDays: requests.reminderPendingDays, listUrl });
      },
    },
  ];
}
