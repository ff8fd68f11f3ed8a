/**
 * Sends the outbox's PENDING e-mails through SMTP (SMTP_URL), started with the server when it is set.
 *
 * Safe with several server processes on one PostgreSQL: a process claims a batch with
 * UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING, which also pushes the rows'
 * next_attempt_at into the future (a lease), so that no other process takes them while they are sent.
 * Each claim counts an attempt; a failed one is retried later (growing back-off) until maxAttempts,
 * then the row is FAILED with its last error. A process that dies mid-send leaves the row to be taken
 * again when its lease ends.
 */
import nodemailer from 'nodemailer';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface DeliveryLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** What sends one message; nodemailer's SMTP transport in production. */
export interface MailTransport {
  sendMail(message: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
  close(): void;
}

export interface MailDeliveryOptions {
  db: Kysely<Database>;
  /** smtp://user:password@host:port or smtps://… */
  smtpUrl: string;
  from: string;
  log: DeliveryLog;
  /** Attempts before a row is FAILED (default 5). */
  maxAttempts?: number;
  /** Rows claimed per round (default 20). */
  batchSize?: number;
  /** Pause between rounds when nothing was due (default 5 s). */
  intervalMs?: number;
  /** How long a claimed row stays reserved to its process (default 120 s). */
  leaseSeconds?: number;
  /** Wait before retrying after the given failed attempt (default 30 s × 2^(attempt-1), at most 1 h). */
  retryDelaySeconds?: (attempt: number) => number;
  /** Tests: another transport than nodemailer's SMTP. */
  transport?: MailTransport;
}

export interface DeliveryRound {
  sent: number;
  retried: number;
  failed: number;
}

export interface MailDelivery {
  /** One round: claim what is due, send it, record the outcome. */
  runOnce(): Promise<DeliveryRound>;
  /** Rounds until stop(): at once after a busy round, after intervalMs otherwise. */
  start(): void;
  stop(): Promise<void>;
}

interface ClaimedRow {
  id: number;
  recipient: string;
  subject: string;
  body: string;
  attempts: number;
}

const defaultRetryDelay = (attempt: number) => Math.min(3600, 30 * 2 ** (attempt - 1));

export function createMailDelivery(options: MailDeliveryOptions): MailDelivery {
  const { db, from, log } = options;
  const maxAttempts = options.maxAttempts ?? 5;
  const batchSize = options.batchSize ?? 20;
  const intervalMs = options.intervalMs ?? 5000;
  const leaseSeconds = options.leaseSeconds ?? 120;
  const retryDelay = options.retryDelaySeconds ?? defaultRetryDelay;
  const transport: MailTransport =
    options.transport ??
    (nodemailer.createTransport({ url: options.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }) as unknown as MailTransport);

  async function claim(): Promise<ClaimedRow[]> {
    const { rows } = await sql<ClaimedRow>`
      update outbox
         set attempts = attempts + 1,
             next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
       where id in (
         select id from outbox
          where status = 'PENDING' and attempts < ${maxAttempts}
            and (next_attempt_at is null or next_attempt_at <= now())
          order by created_at, id
          limit ${batchSize}
          for update skip locked)
      returning id, recipient, subject, body, attempts`.execute(db);
    return rows;
  }

  /** Rows whose last attempt was cut short (process stopped mid-send) after the last allowed one. */
  async function failAbandoned(): Promise<number> {
    const result = await db
      .updateTable('outbox')
      .set({ status: 'FAILED', last_error: sql<string>`coalesce(last_error, 'interrompu pendant l''envoi')` })
      .where('status', '=', 'PENDING')
      .where('attempts', '>=', maxAttempts)
      .where('next_attempt_at', '<=', sql<Date>`now()`)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async function send(row: ClaimedRow): Promise<'sent' | 'retried' | 'failed'> {
    try {
      await transport.sendMail({ from, to: row.recipient, subject: row.subject, text: row.body });
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      const final = row.attempts >= maxAttempts;
      await db
        .updateTable('outbox')
        .set(
          final
            ? { status: 'FAILED', last_error: message, next_attempt_at: null }
            : { last_error: message, next_attempt_at: sql<Date>`now() + make_interval(secs => ${retryDelay(row.attempts)})` },
        )
        .where('id', '=', row.id)
        .execute();
      (final ? log.error : log.warn).call(log, { outboxId: row.id, attempt: row.attempts, err: message }, final ? 'e-mail abandonné' : 'e-mail non envoyé, nouvel essai plus tard');
      return final ? 'failed' : 'retried';
    }
    await db.updateTable('outbox').set({ status: 'SENT', sent_at: sql<Date>`now()`, last_error: null, next_attempt_at: null }).where('id', '=', row.id).execute();
    log.info({ outboxId: row.id, to: row.recipient }, 'e-mail envoyé');
    return 'sent';
  }

  async function runOnce(): Promise<DeliveryRound> {
    const round: DeliveryRound = { sent: 0, retried: 0, failed: await failAbandoned() };
    for (const row of await claim()) round[await send(row)] += 1;
    return round;
  }

  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = true;

  function schedule(delay: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      running = runOnce()
        .then((round) => schedule(round.sent + round.retried + round.failed > 0 ? 0 : intervalMs))
        .catch((error: unknown) => {
          log.error({ err: error instanceof Error ? error.message : String(error) }, "tour d'envoi des e-mails en échec");
          schedule(intervalMs);
        });
    }, delay);
    timer.unref?.();
  }

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => undefined);
      transport.close();
    },
  };
}
