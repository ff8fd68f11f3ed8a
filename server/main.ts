import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { databaseOptions, readConfig, readDemoData } from './config.ts';
import { loadTls } from './tls.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { DEMO_ACCOUNTS, seedDemoData, seedReferenceData } from './seed/seed.ts';
import { loadSigningKeys } from './dev-idp/signing-keys.ts';
import { verifierFor } from './identity/token-verifier.ts';
import { buildApp } from './app.ts';
import { identityDirectoryFor } from './identity/graph-directory.ts';
import { assertSupportedRuntime, missingMemorySettings } from './runtime.ts';
import { pino } from 'pino';

/** How long a stop waits for the requests under way (a load balancer's deregistration delay is usually longer). */
const SHUTDOWN_GRACE_MS = 10_000;

async function start(): Promise<void> {
  assertSupportedRuntime();
  const config = readConfig();
  // The demo data fails closed: refused in production and on a public origin (server/config.ts).
  const withDemoData = readDemoData(config);
  // Before the app's logger exists: in production, JSON lines as the app's (a log collector reads them all).
  const startLog = config.production ? pino({ level: config.logLevel }) : null;
  // Before anything is opened: a provider without its account directory stops the start.
  const directory = identityDirectoryFor(config);
  const tls = await loadTls(config);
  const database = await openDatabase(databaseOptions(config));
  try {
    await migrate(database);
  } catch (error) {
    if (startLog) startLog.fatal({ err: error }, 'Échec de la migration de la base');
    else console.error(`Échec de la migration de la base : ${(error as Error).message}`);
    await database.close();
    process.exit(1);
  }
  // The lists' totals are kept per connection (migration 0004): fold those of connections gone since;
  // cut the name order into even ranges again if one has grown too large.
  await database.exec('select compact_list_totals(); select balance_user_name_ranges()');
  let seeded = false;
  if (withDemoData) seeded = (await seedDemoData(database, { expiryDays: config.requests.expiryDays })).seeded;
  else await database.db.transaction().execute((trx) => seedReferenceData(trx));
  const signingKeys = config.auth.kind === 'local' ? await loadSigningKeys(config.dataDir) : null;
  const verifyToken = await verifierFor(config.auth, signingKeys?.publicJwks ?? null);
  const app = await buildApp({ config, database, verifyToken, signingKeys, tls, directory, demoAccounts: withDemoData ? DEMO_ACCOUNTS : [], runJobs: true });

  // Graceful stop (a deployment, a scale-in): refuse what comes (new connections refused, a request arriving on
  // an open connection answered 503 by Fastify's return503OnClosing), finish the requests under way, then stop
  // the e-mail delivery loop (an onClose hook, run once the server has closed) and close the pool. Bounded: a
  // request that never ends, or a second signal, ends the process with code 1. The scheduled jobs stop there too.
  let stopping = false;
  // Answers not yet sent when the stop begins close their connection once sent: Node closes only the connections
  // idle at that moment, and a kept-alive one would otherwise hold the stop until its keep-alive timeout (72 s).
  const underway = new Set<ServerResponse>();
  app.server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (stopping) response.setHeader('connection', 'close');
    underway.add(response);
    response.once('close', () => underway.delete(response));
  });
  const shutdown = async (signal: string) => {
    if (stopping) {
      app.log.error(`${signal} received again while closing: exiting now`);
      process.exit(1);
    }
    stopping = true;
    app.log.warn(`${signal} received: closing`);
    for (const response of underway) if (!response.headersSent) response.setHeader('connection', 'close');
    setTimeout(() => {
      app.log.error(`still closing after ${SHUTDOWN_GRACE_MS / 1000} s (requests under way did not end): exiting`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    try {
      await app.close();
      await database.close();
    } catch (error) {
      app.log.error({ err: error }, 'closing failed');
      process.exit(1);
    }
    app.log.info('closed');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  // Started otherwise than by npm or the image (server/runtime.ts): said at once, the resident memory will exceed its goal.
  const missingMemory = missingMemorySettings();
  const memoryWarning = `Réglages de mémoire absents : ${missingMemory.join(', ')} (lancez le serveur par npm run serve ou l'image : README, « The server's memory »)`;
  const databaseLine = database.kind === 'pglite' ? `PGlite (${path.join(config.dataDir, 'pglite')})` : 'PostgreSQL (DATABASE_URL)';
  if (config.production) {
    if (missingMemory.length > 0) app.log.warn({ missingMemorySettings: missingMemory }, memoryWarning);
    // One JSON line, as every other line of the log in production.
    app.log.info(
      {
        publicOrigin: config.publicOrigin,
        node: process.version,
        database: database.kind,
        identityProvider: config.auth.kind,
        mail: config.mail.smtpUrl ? 'smtp' : 'outbox only',
        metrics: config.metricsToken !== null,
        demoData: withDemoData,
      },
      'Portail Habilitations démarré',
    );
    return;
  }
  const lines = [
    '',
    `Portail Habilitations : ${config.publicOrigin}`,
    `Node.js : ${process.version}`,
    `Base de données : ${databaseLine}${seeded ? ', données de démonstration chargées' : ''}`,
  ];
  if (missingMemory.length > 0) lines.push(memoryWarning);
  if (config.auth.kind === 'local') lines.push(`Connexion locale (OpenID Connect) : ${config.publicOrigin}/oidc`);
  if (tls?.certFile && config.tls.mode === 'self-signed') lines.push(`Certificat local à approuver : ${tls.certFile}`);
  lines.push(
    config.mail.smtpUrl
      ? `E-mails : envoyés par SMTP (${new URL(config.mail.smtpUrl).host})`
      : "E-mails : non envoyés (pas de SMTP_URL), lisibles dans la table outbox et dans le journal avec LOG_LEVEL=info",
  );
  if (withDemoData) {
    lines.push('Comptes de démonstration (mot de passe Demo-Portail-2026) :');
    for (const account of DEMO_ACCOUNTS) lines.push(`  ${account.email.padEnd(30)} ${account.label}`);
  }
  console.log(lines.join('\n'));
}

start().catch((error: unknown) => {
  if (process.env.NODE_ENV === 'production') pino().fatal({ err: error }, 'Le portail ne démarre pas');
  else console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
