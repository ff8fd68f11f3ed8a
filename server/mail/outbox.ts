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
import { deleteInBatches } from '../db/batches.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
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

/** After the commit of the transaction that queued them: one log line per e-mail, its outbox id and kind (`log` null: none). */
export function logQueuedMails(queued: readonly QueuedMail[], log: MailLog | null): void {
  for (const mail of queued) {
    log?.info({ outboxId: mail.id, kind: mail.kind }, 'e-mail en file d’attente (pas de SMTP_URL : non envoyé, lisible dans la table outbox)');
  }
}

/** What services send e-mails through: written in the unit of work, announced once it committed. */
export interface Outbox {
  enqueue(uow: UnitOfWork, mail: OutboxMail): Promise<number>;
}

/** `log`: where committed e-mails are announced, the server's log when no SMTP server sends them (null: nowhere). */
export function createOutbox(log: MailLog | null): Outbox {
  return {
    async enqueue(uow, mail) {
      const queued: QueuedMail[] = [];
      const id = await enqueueMail(uow.trx, mail, queued);
      uow.afterCommit({ what: 'announce e-mail', run: () => logQueuedMails(queued, log) });
      return id;
    },
  };
}

/** E-mails not sent yet (PENDING) and given up (FAILED), for the metrics. */
export async function countOutbox(db: Kysely<Database>): Promise<{ pending: number; failed: number }> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => [
      eb.fn.countAll<number>().filterWhere('status', '=', 'PENDING').as('pending'),
      eb.fn.countAll<number>().filterWhere('status', '=', 'FAILED').as('failed'),
    ])
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending), failed: Number(row.failed) };
}

/**
 * Deletes SENT e-mails sent before `sentBefore`, `batchSize` rows per statement (short statements, short
 * locks) until none is left or `signal` aborts; answers how many. PENDING and FAILED rows are never deleted:
 * they are still to be sent, or to be looked at.
 */
export async function purgeSentMail(db: Kysely<Database>, sentBefore: Date, { batchSize = 1000, signal }: { batchSize?: number; signal?: AbortSignal } = {}): Promise<number> {
  return deleteInBatches(
    async (limit) => {
      const result = await db
        .deleteFrom('outbox')
        .where('id', 'in', (eb) => eb.selectFrom('outbox').select('id').where('status', '=', 'SENT').where('sent_at', '<', sentBefore).orderBy('id').limit(limit))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    { batchSize, signal },
  );
}
