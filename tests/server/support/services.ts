// The server's services over a test's database, built as buildApp builds them but with no app around them: for a job
// or a service called directly (the portal's own actor, a job's limits). No mail is sent, no kept totals.
import type { Kysely } from 'kysely';
import type { DormancyConfig } from '../../../server/config.ts';
import type { Database } from '../../../server/db/schema.ts';
import { buildServices } from '../../../server/features/services.ts';
import { LocalIdentityDirectory } from '../../../server/identity/directory.ts';
import { createOutbox } from '../../../server/mail/outbox.ts';

export function servicesFor(db: Kysely<Database>, options: { now: () => Date; dormancy: DormancyConfig }) {
  return buildServices({
    db,
    directory: new LocalIdentityDirectory(),
    listTotals: null,
    outbox: createOutbox(null),
    accountSetupUrl: () => '',
    publicOrigin: 'https://portail.exemple.fr',
    log: { error: () => undefined },
    creationLimits: { usersPerHour: 0, invitationsPerHour: 0 },
    requests: { expiryDays: 30, reminderPendingDays: 7, reminderBeforeExpiryDays: 3 },
    now: options.now,
    dormancy: options.dormancy,
    retention: { auditRetentionDays: 365, outboxRetentionDays: 30, requests: { expiryDays: 30 }, dormancy: options.dormancy },
  });
}
