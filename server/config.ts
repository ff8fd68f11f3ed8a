import path from 'node:path';
import { readAccessibility, type AccessibilityConfig } from './accessibility-config.ts';

/**
 * Everything the server reads from its environment, read once at start-up.
 * A setting that production needs and that is missing stops the start with
 * 'Missing required environment variable: NAME'.
 */
export type IdentityProviderKind = 'local' | 'b2c' | 'entra' | 'oidc';

export interface AuthConfig {
  kind: IdentityProviderKind;
  clientId: string;
  /** Authority the SPA signs in with (MSAL `authority`). */
  authority: string;
  /** B2C password-reset policy authority, reached on AADB2C90118. */
  passwordResetAuthority: string | null;
  knownAuthorities: string[];
  /** MSAL protocol mode: 'AAD' for B2C / Entra External ID, 'OIDC' for any other provider. */
  protocolMode: 'AAD' | 'OIDC';
  /** Issuer expected in bearer tokens; null = read from the discovery document. */
  issuer: string | null;
  /** Discovery document used to find the issuer and the keys (not used for the local provider). */
  discoveryUrl: string | null;
}

/** Microsoft Graph, the account directory of B2C and Entra External ID (server/identity/graph-directory.ts). */
export interface GraphConfig {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** e.g. opcosante.onmicrosoft.com: issuer of the accounts' e-mail identities. */
  tenantDomain: string;
}

export interface RequestLifecycleConfig {
  expiryDays: number;
  reminderPendingDays: number;
  reminderBeforeExpiryDays: number;
}

/**
 * Dormant accounts (issue 23), in days, 0 turning a step off: a person who has not signed in for warnAfterDays
 * (counted from the account's creation when never signed in) is warned; deactivated deactivateAfterDays after the
 * warning if still not signed in; deleted deleteAfterDays after that deactivation (never the back office's accounts).
 */
export interface DormancyConfig {
  warnAfterDays: number;
  deactivateAfterDays: number;
  deleteAfterDays: number;
}

export interface ServerConfig {
  production: boolean;
  host: string;
  port: number;
  /** Origin the browser uses, e.g. https://localhost:8443. */
  publicOrigin: string;
  /** 'self-signed' makes (once) a certificate for localhost in the data folder; 'off' serves plain HTTP behind a TLS-terminating load balancer. */
  tls: { mode: 'self-signed' } | { mode: 'files'; certFile: string; keyFile: string } | { mode: 'off' };
  dataDir: string;
  databaseUrl: string | null;
  /** Connections of the PostgreSQL pool (DATABASE_POOL_SIZE, default 10). */
  databasePoolSize: number;
  auth: AuthConfig;
  /** Required with b2c and entra; read for oidc only when GRAPH_TENANT_ID is set; null otherwise. */
  graph: GraphConfig | null;
  memberAreaUrl: string;
  publicSiteUrl: string;
  /** Customer relations, in the help box of the administrator-request screens: opening hours (Monday to Friday), phone line, mailbox. */
  support: { hours: string; phone: string; email: string };
  cookieDomain: string | null;
  /** Folder of the built SPA. */
  webRoot: string;
  logLevel: string;
  /** E-mails (server/mail/): without smtpUrl they stay in the outbox table and the log, unsent. */
  mail: { smtpUrl: string | null; from: string };
  /** API requests a minute per person or client address (API_RATE_LIMIT_PER_MINUTE, default 600; 0: no limit). See server/plugins/rate-limit.ts. */
  apiRateLimitPerMinute: number;
  /**
   * Which proxies to believe about the client's address (TRUST_PROXY: unset for none; a number of hops;
   * or addresses/CIDRs separated by commas). Behind a load balancer the rate limits and the sign-in
   * throttle count per client only when it is set: otherwise every client has the balancer's address.
   */
  trustProxy: false | number | string[];
  /** Bearer secret of GET /metrics (METRICS_TOKEN, 32 characters or more); null: no /metrics route. */
  metricsToken: string | null;
  /** Days a SENT e-mail stays in the outbox (OUTBOX_RETENTION_DAYS, default 30): they hold account set-up links (server/jobs/outbox-retention.ts). */
  outboxRetentionDays: number;
  /** Days a journal entry is kept (AUDIT_RETENTION_DAYS, default 365): older ones are deleted (server/jobs/audit-retention.ts). */
  auditRetentionDays: number;
  /**
   * The life of a request (issue 22): a pending request expires INVITATION_EXPIRY_DAYS after it was made (default 30);
   * the back office's daily digest lists those pending for more than REMINDER_PENDING_DAYS (default 7); a requester is
   * told REMINDER_BEFORE_EXPIRY_DAYS (default 3) before theirs expires (server/jobs/invitation-*.ts).
   */
  requests: RequestLifecycleConfig;
  /** DORMANCY_WARN_AFTER_DAYS (default 365), DORMANCY_DEACTIVATE_AFTER_DAYS (30), DORMANCY_DELETE_AFTER_DAYS (365); 0 turns a step off. */
  dormancy: DormancyConfig;
  /**
   * Creations one person may make in an hour, counted across nodes from the audit journal (USER_CREATIONS_PER_HOUR,
   * default 200; INVITATIONS_PER_HOUR, default 100; 0: no limit). See server/features/audit/creation-limit.service.ts.
   */
  creationLimits: { usersPerHour: number; invitationsPerHour: number };
  /** List requests of one person in flight on a node (LISTS_IN_FLIGHT_PER_PERSON, default 8; 0: no limit). See server/plugins/list-concurrency.ts. */
  listsInFlightPerPerson: number;
  /** ACCESSIBILITY_COMPLIANCE, ACCESSIBILITY_STATEMENT_URL, ACCESSIBILITY_CONTACT_EMAIL (server/accessibility-config.ts). */
  accessibility: AccessibilityConfig;
}

export const LOCAL_CLIENT_ID = 'portail-habilitations-spa';

type Env = Record<string, string | undefined>;

function required(env: Env, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`Missing required environment variable: ${name}`);
  return value;
}

function optional(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

function readAuth(env: Env, production: boolean, publicOrigin: string): AuthConfig {
  const kind = (optional(env, 'IDENTITY_PROVIDER') ?? (production ? null : 'local')) as IdentityProviderKind | null;
  if (kind === null) throw new Error('Missing required environment variable: IDENTITY_PROVIDER');
  const host = new URL(publicOrigin).host;
  switch (kind) {
    case 'local':
      if (production && env.ALLOW_LOCAL_IDENTITY_PROVIDER !== 'true') {
        throw new Error('The local identity provider is for development and tests; set ALLOW_LOCAL_IDENTITY_PROVIDER=true to use it in production.');
      }
      return {
        kind,
        clientId: LOCAL_CLIENT_ID,
        authority: `${publicOrigin}/oidc`,
        passwordResetAuthority: null,
        knownAuthorities: [host],
        protocolMode: 'OIDC',
        issuer: `${publicOrigin}/oidc`,
        discoveryUrl: null,
      };
    case 'b2c': {
      const tenant = required(env, 'B2C_TENANT');
      const signIn = required(env, 'B2C_SIGN_IN_POLICY');
      const reset = required(env, 'B2C_PASSWORD_RESET_POLICY');
      const b2cHost = `${tenant}.b2clogin.com`;
      const base = `https://${b2cHost}/${tenant}.onmicrosoft.com`;
      return {
        kind,
        clientId: required(env, 'AUTH_CLIENT_ID'),
        authority: `${base}/${signIn}`,
        passwordResetAuthority: `${base}/${reset}`,
        knownAuthorities: [b2cHost],
        protocolMode: 'AAD',
        issuer: optional(env, 'AUTH_ISSUER'),
        discoveryUrl: `${base}/${signIn}/v2.0/.well-known/openid-configuration`,
      };
    }
    case 'entra': {
      // Entra External ID, B2C's successor: one tenant-wide authority, user flows chosen in the tenant, no reset policy.
      const subdomain = required(env, 'ENTRA_TENANT_SUBDOMAIN');
      const host = `${subdomain}.ciamlogin.com`;
      const authority = `https://${host}/${subdomain}.onmicrosoft.com`;
      return {
        kind,
        clientId: required(env, 'AUTH_CLIENT_ID'),
        authority,
        passwordResetAuthority: null,
        knownAuthorities: [host],
        protocolMode: 'AAD',
        issuer: optional(env, 'AUTH_ISSUER'),
        discoveryUrl: `${authority}/v2.0/.well-known/openid-configuration`,
      };
    }
    case 'oidc': {
      const authority = required(env, 'OIDC_AUTHORITY').replace(/\/$/, '');
      return {
        kind,
        clientId: required(env, 'AUTH_CLIENT_ID'),
        authority,
        passwordResetAuthority: null,
        knownAuthorities: [new URL(authority).host],
        protocolMode: 'OIDC',
        issuer: optional(env, 'AUTH_ISSUER'),
        discoveryUrl: `${authority}/.well-known/openid-configuration`,
      };
    }
    default:
      throw new Error(`IDENTITY_PROVIDER must be local, b2c, entra or oidc (got '${String(kind)}')`);
  }
}

function readGraph(env: Env, kind: IdentityProviderKind): GraphConfig | null {
  if (kind === 'local' || (kind === 'oidc' && !optional(env, 'GRAPH_TENANT_ID'))) return null;
  return {
    tenantId: required(env, 'GRAPH_TENANT_ID'),
    clientId: required(env, 'GRAPH_CLIENT_ID'),
    clientSecret: required(env, 'GRAPH_CLIENT_SECRET'),
    tenantDomain: required(env, 'GRAPH_TENANT_DOMAIN'),
  };
}

/** Where the data lives: all that the commands working on the database alone (npm run db:migrate) read. */
export type DatabaseConfig = Pick<ServerConfig, 'dataDir' | 'databaseUrl' | 'databasePoolSize'>;

export function readDatabaseConfig(env: Env = process.env): DatabaseConfig {
  const dataDir = path.resolve(optional(env, 'DATA_DIR') ?? '.data');
  const databasePoolSize = Number(optional(env, 'DATABASE_POOL_SIZE') ?? 10);
  if (!Number.isInteger(databasePoolSize) || databasePoolSize < 1) throw new Error(`DATABASE_POOL_SIZE must be a positive whole number (got '${env.DATABASE_POOL_SIZE}')`);
  return { dataDir, databaseUrl: optional(env, 'DATABASE_URL'), databasePoolSize };
}

/** openDatabase's options for these settings: PostgreSQL with DATABASE_URL, else PGlite in <DATA_DIR>/pglite. */
export function databaseOptions(config: DatabaseConfig): { databaseUrl: string; poolMax: number } | { dataDir: string } {
  return config.databaseUrl ? { databaseUrl: config.databaseUrl, poolMax: config.databasePoolSize } : { dataDir: path.join(config.dataDir, 'pglite') };
}

export function readConfig(env: Env = process.env): ServerConfig {
  const production = env.NODE_ENV === 'production';
  const port = Number(optional(env, 'PORT') ?? 8443);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number (got '${env.PORT}')`);
  const tlsSetting = optional(env, 'TLS') ?? (production ? null : 'self-signed');
  let tls: ServerConfig['tls'];
  if (tlsSetting === 'off') tls = { mode: 'off' };
  else if (tlsSetting === 'self-signed') tls = { mode: 'self-signed' };
  else tls = { mode: 'files', certFile: required(env, 'TLS_CERT_FILE'), keyFile: required(env, 'TLS_KEY_FILE') };
  const publicOrigin = (optional(env, 'PUBLIC_ORIGIN') ?? (production ? required(env, 'PUBLIC_ORIGIN') : `https://localhost:${port}`)).replace(/\/$/, '');
  const { dataDir, databaseUrl, databasePoolSize } = readDatabaseConfig(env);
  const auth = readAuth(env, production, publicOrigin);
  const apiRateLimitPerMinute = Number(optional(env, 'API_RATE_LIMIT_PER_MINUTE') ?? 600);
  if (!Number.isInteger(apiRateLimitPerMinute) || apiRateLimitPerMinute < 0) {
    throw new Error(`API_RATE_LIMIT_PER_MINUTE must be a whole number, 0 for no limit (got '${env.API_RATE_LIMIT_PER_MINUTE}')`);
  }
  const creationLimits = {
    usersPerHour: creationsPerHour(env, 'USER_CREATIONS_PER_HOUR', 200),
    invitationsPerHour: creationsPerHour(env, 'INVITATIONS_PER_HOUR', 100),
  };
  const listsInFlightPerPerson = Number(optional(env, 'LISTS_IN_FLIGHT_PER_PERSON') ?? 8);
  if (!Number.isInteger(listsInFlightPerPerson) || listsInFlightPerPerson < 0) {
    throw new Error(`LISTS_IN_FLIGHT_PER_PERSON must be a whole number, 0 for no limit (got '${env.LISTS_IN_FLIGHT_PER_PERSON}')`);
  }
  const metricsToken = optional(env, 'METRICS_TOKEN');
  if (metricsToken !== null && !/^[\x21-\x7e]{32,}$/.test(metricsToken)) {
    throw new Error('METRICS_TOKEN must be at least 32 printable characters without spaces (e.g. openssl rand -hex 32)');
  }
  const outboxRetentionDays = Number(optional(env, 'OUTBOX_RETENTION_DAYS') ?? 30);
  if (!Number.isInteger(outboxRetentionDays) || outboxRetentionDays < 1) {
    throw new Error(`OUTBOX_RETENTION_DAYS must be a whole number of days, 1 or more (got '${env.OUTBOX_RETENTION_DAYS}')`);
  }
  const auditRetentionDays = Number(optional(env, 'AUDIT_RETENTION_DAYS') ?? 365);
  if (!Number.isInteger(auditRetentionDays) || auditRetentionDays < 1) {
    throw new Error(`AUDIT_RETENTION_DAYS must be a whole number of days, 1 or more (got '${env.AUDIT_RETENTION_DAYS}')`);
  }
  const requests = readRequestLifecycle(env);
  const dormancy = readDormancy(env);
  const support = {
    hours: optional(env, 'SUPPORT_HOURS') ?? (production ? required(env, 'SUPPORT_HOURS') : 'de 9 h à 12 h 30 et de 13 h 30 à 17 h 30'),
    phone: optional(env, 'SUPPORT_PHONE') ?? (production ? required(env, 'SUPPORT_PHONE') : '01 99 00 12 34'),
    email: optional(env, 'SUPPORT_EMAIL') ?? (production ? required(env, 'SUPPORT_EMAIL') : 'relation.adherents@example.org'),
  };
  return {
    production,
    host: optional(env, 'HOST') ?? (production ? '0.0.0.0' : 'localhost'),
    port,
    publicOrigin,
    tls,
    dataDir,
    databaseUrl,
    databasePoolSize,
    auth,
    graph: readGraph(env, auth.kind),
    memberAreaUrl: optional(env, 'MEMBER_AREA_URL') ?? (production ? required(env, 'MEMBER_AREA_URL') : 'https://adherent.example.org/'),
    publicSiteUrl: optional(env, 'PUBLIC_SITE_URL') ?? `${publicOrigin}/`,
    support,
    cookieDomain: optional(env, 'COOKIE_DOMAIN'),
    webRoot: path.resolve(optional(env, 'WEB_ROOT') ?? 'dist'),
    logLevel: optional(env, 'LOG_LEVEL') ?? (production ? 'info' : 'warn'),
    mail: {
      smtpUrl: optional(env, 'SMTP_URL'),
      from: optional(env, 'MAIL_FROM') ?? `Portail Habilitations <no-reply@${new URL(publicOrigin).hostname}>`,
    },
    apiRateLimitPerMinute,
    trustProxy: readTrustProxy(optional(env, 'TRUST_PROXY')),
    metricsToken,
    outboxRetentionDays,
    auditRetentionDays,
    requests,
    dormancy,
    creationLimits,
    listsInFlightPerPerson,
    accessibility: readAccessibility(env, support.email),
  };
}

/** A number of days: a whole number from `min` to 3650. */
function days(env: Env, name: string, fallback: number, min: number): number {
  const text = optional(env, name);
  if (text === null) return fallback;
  const value = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > 3650) throw new Error(`${name} must be a whole number of days, from ${min} to 3650 (got '${text}')`);
  return value;
}

/** INVITATION_EXPIRY_DAYS when it is not set: a pending request expires 30 days after it was made. */
export const DEFAULT_INVITATION_EXPIRY_DAYS = 30;

/** INVITATION_EXPIRY_DAYS, REMINDER_PENDING_DAYS, REMINDER_BEFORE_EXPIRY_DAYS: the reminder before expiry falls within the period. */
function readRequestLifecycle(env: Env): RequestLifecycleConfig {
  const expiryDays = days(env, 'INVITATION_EXPIRY_DAYS', DEFAULT_INVITATION_EXPIRY_DAYS, 1);
  const reminderPendingDays = days(env, 'REMINDER_PENDING_DAYS', 7, 1);
  const reminderBeforeExpiryDays = days(env, 'REMINDER_BEFORE_EXPIRY_DAYS', 3, 1);
  if (reminderBeforeExpiryDays >= expiryDays) {
    throw new Error(`REMINDER_BEFORE_EXPIRY_DAYS (${reminderBeforeExpiryDays}) must be fewer days than INVITATION_EXPIRY_DAYS (${expiryDays})`);
  }
  return { expiryDays, reminderPendingDays, reminderBeforeExpiryDays };
}

/** The dormancy periods: each from 0 (that step off) to 3650 days. */
export function readDormancy(env: Env): DormancyConfig {
  return {
    warnAfterDays: days(env, 'DORMANCY_WARN_AFTER_DAYS', 365, 0),
    deactivateAfterDays: days(env, 'DORMANCY_DEACTIVATE_AFTER_DAYS', 30, 0),
    deleteAfterDays: days(env, 'DORMANCY_DELETE_AFTER_DAYS', 365, 0),
  };
}

/** A number of creations an hour: a whole number, 0 for no limit, at most 1,000,000. */
function creationsPerHour(env: Env, name: string, fallback: number): number {
  const text = optional(env, name);
  if (text === null) return fallback;
  const value = /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(value) || value > 1_000_000) throw new Error(`${name} must be a whole number of creations an hour, 0 for no limit (got '${text}')`);
  return value;
}

/** TRUST_PROXY: a number of proxy hops, or the proxies' addresses or CIDR ranges separated by commas. */
export function readTrustProxy(value: string | null | undefined): false | number | string[] {
  if (value == null || value.trim() === '') return false;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const addresses = value.split(',').map((a) => a.trim()).filter(Boolean);
  if (addresses.some((a) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(a))) {
    throw new Error(`TRUST_PROXY must be a number of hops or addresses/CIDRs separated by commas (got '${value}')`);
  }
  return addresses;
}

/** A loopback origin: localhost, an IPv4 address of 127.0.0.0/8 or ::1 (URL writes 127.1 as 127.0.0.1 and IPv6 in brackets). */
export function isLoopbackOrigin(origin: string): boolean {
  const { hostname } = new URL(origin);
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Whether to load the demo data (SEED_DEMO_DATA), whose accounts share a password published on the local
 * sign-in page and in docs/demo-data.md, checked at start so that it fails closed:
 * - by default it is loaded with the local provider outside production, never otherwise; 'true' loads it,
 *   'false' leaves it out;
 * - in production it is refused unless PUBLIC_ORIGIN is a loopback address (the benchmarks and the
 *   resilience tests, which run production on 127.0.0.1);
 * - with the local provider it is refused on any other origin than a loopback one, NODE_ENV unset included,
 *   unless ALLOW_DEMO_DATA_ON_PUBLIC_ORIGIN=true says it is meant (a shared development server); that flag
 *   never lifts the production refusal.
 */
export function readDemoData(config: Pick<ServerConfig, 'production' | 'publicOrigin' | 'auth'>, env: Env = process.env): boolean {
  const setting = optional(env, 'SEED_DEMO_DATA');
  if (setting !== null && setting !== 'true' && setting !== 'false') throw new Error(`SEED_DEMO_DATA must be true or false (got '${setting}')`);
  const demoData = setting === null ? config.auth.kind === 'local' && !config.production : setting === 'true';
  if (!demoData || isLoopbackOrigin(config.publicOrigin)) return demoData;
  const why = `the demo accounts' password is published, and PUBLIC_ORIGIN (${config.publicOrigin}) is not a loopback address (localhost, 127.0.0.0/8, ::1)`;
  if (config.production) throw new Error(`SEED_DEMO_DATA=true is refused in production: ${why}.`);
  if (config.auth.kind === 'local' && env.ALLOW_DEMO_DATA_ON_PUBLIC_ORIGIN !== 'true') {
    throw new Error(
      `The local identity provider refuses to start with the demo data: ${why}. Set SEED_DEMO_DATA=false to start without it, ` +
        'or ALLOW_DEMO_DATA_ON_PUBLIC_ORIGIN=true on a development server meant to be reached by others.',
    );
  }
  return demoData;
}
