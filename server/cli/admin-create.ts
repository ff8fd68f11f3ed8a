// npm run admin:create -- --email <adresse> [--first-name <prénom>] [--last-name <nom>] [--force]
//
// The first back-office administrator of a database (production starts empty: nobody could sign in to make
// one). With the server's environment (DATABASE_URL, IDENTITY_PROVIDER, GRAPH_*, PUBLIC_ORIGIN…), it applies
// the pending migrations and the reference data as a start does, then creates a BACKOFFICE user holding every
// permission the way the wizard creates users: the sign-in account at the identity directory (local table or
// Microsoft Graph), the invitation e-mail in the outbox (sent by a server whose SMTP_URL is set), an audit
// entry naming the command. Refused while an active back-office administrator exists, unless --force.
import { hostname, userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { databaseOptions, readConfig } from '../config.ts';
import { DomainError } from '../core/errors.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { loadSigningKeys } from '../dev-idp/signing-keys.ts';
import { checkIdentity } from '../features/users/users.input.ts';
import { buildServices } from '../features/services.ts';
import { configureAccountSetup } from '../identity/account-setup-links.ts';
import type { IdentityDirectory } from '../identity/directory.ts';
import { identityDirectoryFor } from '../identity/graph-directory.ts';
import { createOutbox } from '../mail/outbox.ts';
import { seedReferenceData } from '../seed/seed.ts';
import { messageOf, runWhenStarted, type CommandIo } from './command.ts';

export const USAGE = 'Usage : npm run admin:create -- --email <adresse> [--first-name <prénom>] [--last-name <nom>] [--force]';
const DEFAULT_NAMES = { firstName: 'Administrateur', lastName: 'Portail' };
/** The options, by the field names of the checks. */
const OPTION_OF: Record<string, string> = { email: '--email', firstName: '--first-name', lastName: '--last-name' };

/** Who ran the command, for the audit entry (a command has no portal user). */
function requestedBy(): string {
  let who = process.env.USER ?? 'inconnu';
  try {
    who = userInfo().username;
  } catch {
    // No account entry for this uid (some containers).
  }
  return `npm run admin:create (${who}@${hostname()})`;
}

/** `directory`: tests hand another one (a stand-in for Graph). */
export async function adminCreate(io: CommandIo, args: readonly string[], overrides: { directory?: IdentityDirectory } = {}): Promise<number> {
  let options: { email?: string | undefined; 'first-name'?: string | undefined; 'last-name'?: string | undefined; force?: boolean | undefined; help?: boolean | undefined };
  try {
    options = parseArgs({
      args: [...args],
      options: { email: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    io.err(`${messageOf(error)}\n${USAGE}`);
    return 1;
  }
  if (options.help) {
    io.out(USAGE);
    return 0;
  }
  if (!options.email) {
    io.err(USAGE);
    return 1;
  }
  const input = {
    email: options.email.trim(),
    firstName: options['first-name']?.trim() ?? DEFAULT_NAMES.firstName,
    lastName: options['last-name']?.trim() ?? DEFAULT_NAMES.lastName,
  };
  try {
    checkIdentity(input);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    for (const field of error.fieldErrors ?? []) io.err(`${OPTION_OF[field.field.replace(/^body\./, '')] ?? field.field} : ${field.message}`);
    return 1;
  }

  let database: DatabaseHandle | null = null;
  try {
    const config = readConfig(io.env);
    const directory = overrides.directory ?? identityDirectoryFor(config);
    database = await openDatabase({ ...databaseOptions(config), ...(config.databaseUrl ? { poolMax: 2 } : {}) });
    const { applied } = await migrate(database);
    if (applied.length) io.out(`Migrations appliquées : ${applied.join(', ')}`);
    await database.db.transaction().execute((trx) => seedReferenceData(trx));
    const signingKeys = config.auth.kind === 'local' ? await loadSigningKeys(config.dataDir) : null;
    const services = buildServices({
      db: database.db,
      directory,
      listTotals: null,
      outbox: createOutbox(null),
      creationLimits: config.creationLimits,
      requests: config.requests,
      retention: config,
      dormancy: config.dormancy,
      now: () => new Date(),
      publicOrigin: config.publicOrigin,
      accountSetupUrl: configureAccountSetup({ publicOrigin: config.publicOrigin, provider: config.auth.kind, secret: signingKeys?.accountSetupSecret ?? null }),
      log: { error: (details, message) => io.err(`${message} ${JSON.stringify(details, (_key, value: unknown) => (value instanceof Error ? value.message : value))}`) },
    });
    const { user, outboxId } = await services.users.createBackOfficeAdministrator({ ...input, force: options.force ?? false, requestedBy: requestedBy() });
    io.out(`Administrateur du back-office créé : ${user.first_name} ${user.last_name} <${user.email}> (id ${user.id}), toutes les permissions.`);
    io.out(`Compte de connexion : ${directory.kind === 'graph' ? 'créé dans Microsoft Graph' : 'créé dans les comptes du fournisseur local'} (sujet ${user.auth_id}).`);
    io.out(
      `E-mail d'invitation : en file d'attente (outbox n° ${outboxId}), ` +
        (config.mail.smtpUrl ? 'envoyé par le serveur (SMTP_URL).' : "non envoyé tant qu'aucun serveur n'a de SMTP_URL ; lisible dans la table outbox."),
    );
    return 0;
  } catch (error) {
    io.err(error instanceof DomainError ? `Refusé : ${error.message}` : `Échec de la création de l'administrateur : ${messageOf(error)}`);
    return 1;
  } finally {
    await database?.close().catch(() => undefined);
  }
}

runWhenStarted(import.meta.url, adminCreate);
