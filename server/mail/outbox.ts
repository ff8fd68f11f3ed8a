/**
 * The outbox: e-mails are written to the `outbox` table in the transaction of the change they
 * announce (nothing sent for a change that rolled back, nothing lost for one that committed).
 * ./delivery.ts sends them when SMTP_URL is set; without it they stay readable in the table
 * (status PENDING), and each is announced in the server log (info level) once its transaction
 * committed: its outbox id and kind only, never its body (account set-up links carry a token) nor
 * its recipient.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { OutboxMail } from './templates.ts';

export type { OutboxMail } from './templates.ts';

export interface MailLog {
  info(details: object, message: string): void;
}

/** An e-mail written to the outbox by a transaction, to announce once it committed. */
export interface QueuedMail {
  id: number;
  kind: OutboxMail['kind'];
}

// Set once by buildApp (app.ts): the server's logger when no SMTP server is configured, else null.
let queuedLog: MailLog | null = null;

/** Where committed e-mails are announced (null: nowhere). */
export function logEnqueuedMailTo(log: MailLog | null): void {
  queuedLog = log;
}

/** Writes one e-mail to the outbox, in the caller's transaction; answers its outbox id, and adds it to `queued` when given. */
export async function enqueueMail(trx: Transaction<Database> | Kysely<Database>, mail: OutboxMail, queued?: QueuedMail[]): Promise<number> {
  const row = await trx
    .insertInto('outbox')
    .values({ kind: mail.kind, recipient: mail.recipient, subject: mail.subject, body: mail.body })
    .returning('id')
    .executeTakeFirstOrThrow();
  queued?.push({ id: row.id, kind: mail.kind });
  return row.id;
}

/** After the commit of the transaction that queued them: one log line per e-mail, its outbox id and kind. */
export function logQueuedMails(queued: readonly QueuedMail[]): void {
  for (const mail of queued) {
    queuedLog?.info({ outboxId: mail.id, kind: mail.kind }, 'e-mail en file d’attente (pas de SMTP_URL : non envoyé, lisible dans la table outbox)');
  }
}
