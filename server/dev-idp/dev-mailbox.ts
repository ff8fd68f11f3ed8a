/**
 * The local mailbox (/oidc/dev/mailbox): the e-mails the portal queued in its outbox, readable in the
 * browser, so that a person trying the portal locally can follow a new account's set-up link without an
 * SMTP relay. Mounted with the local identity provider only (development and tests, like the demo
 * accounts listed on its sign-in page): never with B2C, Entra External ID or another provider.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { mailboxPage } from './pages.ts';

export const DEV_MAILBOX_PATH = '/oidc/dev/mailbox';
/** The most recent e-mails only: a mailbox to read, not an archive. */
const MAILBOX_LIMIT = 50;

export function registerDevMailboxRoutes(scope: FastifyInstance, { db }: { db: Kysely<Database> }): void {
  scope.get<{ Querystring: { to?: string } }>(DEV_MAILBOX_PATH, async (request, reply) => {
    const to = typeof request.query.to === 'string' ? request.query.to.trim().slice(0, 254) : '';
    let query = db.selectFrom('outbox').select(['id', 'created_at', 'recipient', 'subject', 'body', 'status']).orderBy('id', 'desc').limit(MAILBOX_LIMIT);
    if (to) query = query.where((eb) => eb(eb.fn('lower', ['recipient']), '=', to.toLowerCase()));
    const mails = await query.execute();
    reply.type('text/html').header('cache-control', 'no-store');
    return mailboxPage({ to, mails: mails.map((m) => ({ ...m, createdAt: new Date(m.created_at) })) });
  });
}
