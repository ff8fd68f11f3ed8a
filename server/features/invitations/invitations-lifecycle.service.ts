// What the portal does to requests by itself, on its scheduled jobs (issue 22, server/jobs/invitation-*.ts):
// expiring the pending requests whose period has passed (each with its journal entry), telling requesters a few
// days before theirs expires, and the back office's daily digest of requests pending too long. Each batch is one
// unit of work with its journal entries and its e-mails (outbox); each reminder is sent once.
import type { Kysely } from 'kysely';
import type { Database, InvitationRow } from '../../db/schema.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { pendingDigestMail, requestExpiringMail } from '../../mail/request-reminder-templates.ts';
import { writeAudits } from '../audit/audit.repository.ts';
import { frenchDate, parisDay } from '../exports/csv.model.ts';
import { backOfficeDeciders, subjectsOf, expirePending, markExpiryReminders, pendingMadeBefore, recordDigest } from './invitations-lifecycle.repository.ts';
import { mailInput } from './invitations.service.ts';
import { requestExpiresAt } from './request-lifecycle.model.ts';
import { requesterStillInCharge } from './invitations.policy.ts';
import { findOrganizationsByCodes } from '../organizations/organizations.repository.ts';
import { loadActor } from '../session/actor.repository.ts';
import type { Actor } from '../../core/actor.ts';
import { DAY_MS } from '../../core/time.ts';

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

interface BatchOptions {
  signal?: AbortSignal;
  batchSize?: number;
}

/** Marks EXPIRED every pending request made `expiryDays` days or more before `now`, batch after batch, each with its journal entry. */
export async function expireDueRequests(db: Kysely<Database>, now: Date, expiryDays: number, { signal, batchSize = 500 }: BatchOptions = {}): Promise<number> {
  let expired = 0;
  while (!signal?.aborted) {
    const count = await inTransaction(db, async ({ trx }) => {
      const rows = await expirePending(trx, daysBefore(now, expiryDays), expiryDays, batchSize);
      await writeAudits(
        trx,
        rows.map((row) => ({
          actor: { userId: null, email: null },
          action: 'invitation.expire' as const,
          entityType: 'invitation' as const,
          entityId: row.id,
          organizationId: row.organization_id,
          subject: { emails: [row.invitee_email] },
          changes: { status: { before: 'PENDING', after: 'EXPIRED' }, expiryDays },
        })),
      );
      return rows.length;
    });
    expired += count;
    if (count < batchSize) break;
  }
  return expired;
}

/**
 * Tells each requester, once, that their request expires in `beforeDays` days or fewer (requests made at least
 * `expiryDays - beforeDays` days before `now`, still pending), at their address of today. A requester no longer in
 * charge of it (account gone or deactivated, USER_CREATE on its organization lost: requesterStillInCharge) is not told: the request is marked all the same, and the
 * back office's digest still names it (security review). Answers how many were told.
 */
export async function remindRequestersBeforeExpiry(
  db: Kysely<Database>,
  now: Date,
  { expiryDays, beforeDays }: { expiryDays: number; beforeDays: number },
  { signal, batchSize = 500 }: BatchOptions = {},
): Promise<number> {
  let told = 0;
  while (!signal?.aborted) {
    const batch = await inTransaction(db, async ({ trx }) => {
      const rows = await markExpiryReminders(trx, { after: daysBefore(now, expiryDays), before: daysBefore(now, expiryDays - beforeDays) }, now, batchSize);
      const requesters = await requestersAsTheyAre(trx, rows);
      const organizations = new Map((await findOrganizationsByCodes(trx, rows.map((row) => row.organization_code))).map((o) => [o.code, o.id]));
      let sent = 0;
      for (const row of rows) {
        const requester = row.sender_user_id ? requesters.get(row.sender_user_id) : undefined;
        if (!requester || !requesterStillInCharge(requester, row, organizations.get(row.organization_code) ?? null)) continue;
        const address = requester.email;
        await enqueueMail(trx, requestExpiringMail({ ...mailInput(row), senderEmail: address, expiresOn: frenchDate(requestExpiresAt(row.created_at, expiryDays)) }));
        sent += 1;
      }
      return { marked: rows.length, sent };
    });
    told += batch.sent;
    if (batch.marked < batchSize) break;
  }
  return told;
}

/** The requesters of these requests with their rights of today (a few per batch): who is still in charge of each. */
async function requestersAsTheyAre(db: Kysely<Database>, rows: readonly InvitationRow[]): Promise<Map<string, Actor>> {
  const subjects = await subjectsOf(db, [...new Set(rows.flatMap((row) => (row.sender_user_id ? [row.sender_user_id] : [])))]);
  const actors = new Map<string, Actor>();
  for (const [id, subject] of subjects) {
    const actor = await loadActor(db, subject);
    if (actor) actors.set(id, actor);
  }
  return actors;
}

/** The most requests a digest names; it counts the others. */
export const DIGEST_LINES = 50;

/**
 * Once a day (Europe/Paris), to every active back-office user holding USER_CREATE: the requests pending for more
 * than `pendingDays` days. Nothing when there are none or nobody to tell; the day is recorded with the e-mails,
 * so that a second run that day sends nothing.
 */
export async function sendPendingDigest(db: Kysely<Database>, now: Date, { pendingDays, listUrl }: { pendingDays: number; listUrl: string }): Promise<{ sent: number; requests: number }> {
  return inTransaction(db, async ({ trx }) => {
    const { rows, total } = await pendingMadeBefore(trx, daysBefore(now, pendingDays), DIGEST_LINES);
    if (total === 0) return { sent: 0, requests: 0 };
    const recipients = await backOfficeDeciders(trx);
    if (recipients.length === 0 || !(await recordDigest(trx, parisDay(now), now, total, recipients.length))) return { sent: 0, requests: total };
    const lines = rows.map((row) => ({
      invitationId: row.id,
      inviteeEmail: row.invitee_email,
      organizationName: row.organization_name,
      organizationCode: row.organization_code,
      roleName: row.role_name,
      createdOn: frenchDate(row.created_at),
    }));
    for (const recipient of recipients) await enqueueMail(trx, pendingDigestMail({ recipient, days: pendingDays, total, lines, listUrl }));
    return { sent: recipients.length, requests: total };
  });
}
