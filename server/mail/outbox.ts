/**
 * The outbox: e-mails are written to the `outbox` table in the transaction of the change they
 * announce (nothing sent for a change that rolled back, nothing lost for one that committed).
 * ./delivery.ts sends them when SMTP_URL is set; without it they stay readable in the table
 * (status PENDING) and each is also written to the server log (info level) when enqueued.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { OutboxMail } from './templates.ts';

export type { OutboxMail } from './templates.ts';

export interface MailLog {
  info(details: object, message: string): void;
}

// Set once by buildApp (app.ts): the server's logger when no SMTP server is configured, else null.
let enqueueLog: MailLog | null = null;

/** Where enqueued e-mails are also written (null: nowhere). */
export function logEnqueuedMailTo(log: MailLog | null): void {
  enqueueLog = log;
}

/** Writes one e-mail to the outbox, in the caller's transaction; answers its outbox id. */
export async function enqueueMail(trx: Transaction<Database> | Kysely<Database>, mail: OutboxMail): Promise<number> {
  const row = await trx
    .insertInto('outbox')
    .values({ kind: mail.kind, recipient: mail.recipient, subject: mail.subject, body: mail.body })
    .returning('id')
    .executeTakeFirstOrThrow();
  enqueueLog?.info(
    { outboxId: row.id, kind: mail.kind, to: mail.recipient, subject: mail.subject, body: mail.body },
    'e-mail en file d’attente (pas de SMTP_URL : non envoyé, lisible dans la table outbox)',
  );
  return row.id;
}
