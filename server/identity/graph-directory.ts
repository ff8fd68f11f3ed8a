// The identity provider's accounts in production: Microsoft Graph on an Azure AD B2C or Entra External ID
// tenant, with an application registration holding User.ReadWrite.All (application permission) and a
// client secret. Nothing here runs a transaction: see IdentityDirectory on how callers order remote calls.
import { randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { IdentityDirectoryError, IdentityTakenError, LocalIdentityDirectory, refuseHeldIdentity, type CreatedAccount, type IdentityDirectory } from './directory.ts';

export interface GraphDirectoryOptions {
  /** The tenant's id (a uuid) or its domain: where the client-credentials token is asked for. */
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** e.g. opcosante.onmicrosoft.com: the issuer of the local accounts' e-mail identities. */
  tenantDomain: string;
  /** Default https://graph.microsoft.com (tests point it at a local server). */
  graphBaseUrl?: string;
  /** Default https://login.microsoftonline.com (tests point it at a local server). */
  loginBaseUrl?: string;
  /** Per request; default 15 s. */
  timeoutMs?: number;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
  /** Waits before a retry; tests move their clock instead of waiting. */
  sleep?: (ms: number) => Promise<void>;
  /** Throttling (429) and unavailability (503): how many times a call is sent at most, and how long it may wait in all. */
  retry?: Partial<RetryPolicy>;
}

/**
 * Microsoft Graph throttles (429) and is sometimes unavailable (503), both with a Retry-After in seconds or as
 * an HTTP date. A call that is safe to repeat is sent again after that wait (without one: 1 s, 2 s, 4 s…),
 * while attempts and the total wait allow; a Retry-After longer than what is left of the total wait ends the
 * retries at once. The person's request is waiting meanwhile (and its transaction is open), hence the small total.
 */
export interface RetryPolicy {
  maxAttempts: number;
  maxTotalWaitMs: number;
}
export const GRAPH_RETRY: Readonly<RetryPolicy> = { maxAttempts: 4, maxTotalWaitMs: 10_000 };
const FIRST_BACKOFF_MS = 1000;

/**
 * Which refusals a call may be sent again after:
 * - 'repeatable': GET, PATCH of a given body (the same end state however often it is applied), DELETE
 *   counting 404 as done, the client-credentials token request: on 429 and 503.
 * - 'unprocessed-only': POST /users (a new account each time it is processed): on 429 only, which Graph
 *   answers before processing the request. A 503 may come after the account was made; sending it again would
 *   meet that account as "already exists" and reuse it as somebody else's (never deleted on undo), so it fails.
 */
type Retries = 'repeatable' | 'unprocessed-only';

/** A refusal of Microsoft Graph or of its token endpoint, with their error code and message (never the secret). */
export class GraphDirectoryError extends IdentityDirectoryError {
  readonly status: number;
  readonly code: string;
  constructor(message: string, status: number, code: string) {
    super(message);
    this.name = 'GraphDirectoryError';
    this.status = status;
    this.code = code;
  }
}

const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
/** A token is renewed this long before it expires (tokens live about an hour). */
const TOKEN_RENEWAL_MARGIN_MS = 5 * 60_000;

interface CachedToken {
  value: string;
  expiresAt: number;
}

type Json = Record<string, unknown>;

/** Graph's objectIdentity: one way to sign in to an account. */
interface ObjectIdentity {
  signInType: string;
  issuer: string;
  issuerAssignedId: string;
}

export class GraphIdentityDirectory implements IdentityDirectory {
  readonly kind = 'graph' as const;
  private readonly options: GraphDirectoryOptions;
  private readonly graphBase: string;
  private readonly tokenUrl: string;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly retry: RetryPolicy;
  private token: CachedToken | null = null;
  private pendingToken: Promise<string> | null = null;

  constructor(options: GraphDirectoryOptions) {
    this.options = options;
    this.graphBase = (options.graphBaseUrl ?? 'https://graph.microsoft.com').replace(/\/$/, '');
    const loginBase = (options.loginBaseUrl ?? 'https://login.microsoftonline.com').replace(/\/$/, '');
    this.tokenUrl = `${loginBase}/${encodeURIComponent(options.tenantId)}/oauth2/v2.0/token`;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.retry = { ...GRAPH_RETRY, ...options.retry };
  }

  /**
   * A local account signing in with its e-mail, enabled, with a random password it must change: the
   * person sets theirs through the provider's password-reset flow. B2C tokens carry the object id as
   * subject, so the new user's id is the subject. An identity already holding this e-mail (a deleted
   * portal user came back) is reused and enabled, as the local directory does, unless a portal user
   * holds it (IdentityTakenError, before any change). The transaction is only read, for that check.
   */
  async createAccount(trx: Transaction<Database>, input: { email: string; displayName: string }): Promise<CreatedAccount> {
    const password = strongPassword();
    try {
      const created = await this.call<{ id?: string }>('POST', '/v1.0/users', {
        accountEnabled: true,
        displayName: input.displayName,
        identities: [this.emailIdentity(input.email)],
        passwordProfile: { password, forceChangePasswordNextSignIn: true },
        passwordPolicies: 'DisablePasswordExpiration',
      }, [password], { retries: 'unprocessed-only' });
      if (!created?.id) throw new GraphDirectoryError('Microsoft Graph a créé le compte sans en donner l’identifiant.', 502, 'MissingId');
      return { subject: created.id, reused: false };
    } catch (error) {
      if (!(error instanceof GraphDirectoryError) || !isIdentityTaken(error)) throw error;
      const existing = await this.findByEmail(input.email);
      if (!existing) throw error;
      await refuseHeldIdentity(trx, existing);
      // Its old password is replaced by one nobody knows, to change at the next sign-in (the reset flow).
      const reset = strongPassword();
      await this.call(
        'PATCH',
        `/v1.0/users/${encodeURIComponent(existing)}`,
        { accountEnabled: true, displayName: input.displayName, passwordProfile: { password: reset, forceChangePasswordNextSignIn: true } },
        [reset],
      );
      // And whoever was signed in with it (single sign-on of the tenant's other applications) is signed out.
      await this.revokeSessions(trx, existing);
      return { subject: existing, reused: true };
    }
  }

  /** A missing account counts as disabled: nobody can sign in with it. */
  async disableAccount(_trx: Transaction<Database> | Kysely<Database>, subject: string): Promise<void> {
    await this.call('PATCH', `/v1.0/users/${encodeURIComponent(subject)}`, { accountEnabled: false }, [], { notFoundIsDone: true });
  }

  async enableAccount(_trx: Transaction<Database> | Kysely<Database>, subject: string): Promise<void> {
    await this.call('PATCH', `/v1.0/users/${encodeURIComponent(subject)}`, { accountEnabled: true });
  }

  /** A missing account counts as deleted. */
  async deleteAccount(_trx: Transaction<Database> | Kysely<Database>, subject: string): Promise<void> {
    await this.call('DELETE', `/v1.0/users/${encodeURIComponent(subject)}`, undefined, [], { notFoundIsDone: true });
  }

  /** Graph invalidates the account's refresh tokens and session cookies (revokeSignInSessions). A missing account counts as done. */
  async revokeSessions(_trx: Transaction<Database> | Kysely<Database>, subject: string): Promise<void> {
    await this.call('POST', `/v1.0/users/${encodeURIComponent(subject)}/revokeSignInSessions`, undefined, [], { notFoundIsDone: true });
  }

  /**
   * The display name, and the e-mail of the emailAddress identity (added when the account has none).
   * Graph replaces the whole identities collection on update, the userPrincipalName one included, so
   * the collection is read first and written back with that one identity changed; it is left out of
   * the update when it holds this e-mail already.
   */
  async updateAccount(_trx: Transaction<Database> | Kysely<Database>, subject: string, input: { email: string; displayName: string }): Promise<void> {
    const path = `/v1.0/users/${encodeURIComponent(subject)}`;
    const current = (await this.call<{ identities?: ObjectIdentity[] }>('GET', `${path}?$select=identities`))?.identities ?? [];
    const signIn = current.find((identity) => identity.signInType === 'emailAddress');
    const identities = signIn
      ? current.map((identity) => (identity === signIn ? { ...identity, issuerAssignedId: input.email } : identity))
      : [...current, this.emailIdentity(input.email)];
    try {
      await this.call('PATCH', path, { displayName: input.displayName, ...(signIn?.issuerAssignedId === input.email ? {} : { identities }) });
    } catch (error) {
      if (error instanceof GraphDirectoryError && isIdentityTaken(error)) throw new IdentityTakenError(error.message, { cause: error });
      throw error;
    }
  }

  private emailIdentity(email: string): ObjectIdentity {
    return { signInType: 'emailAddress', issuer: this.options.tenantDomain, issuerAssignedId: email };
  }

  /** The object id of the local account signing in with this e-mail, if any. */
  private async findByEmail(email: string): Promise<string | null> {
    const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
    const filter = `identities/any(c:c/issuerAssignedId eq ${literal(email)} and c/issuer eq ${literal(this.options.tenantDomain)})`;
    const found = await this.call<{ value?: { id: string }[] }>('GET', `/v1.0/users?$filter=${encodeURIComponent(filter)}&$select=id`);
    return found?.value?.[0]?.id ?? null;
  }

  /**
   * One Graph call with the application's token; a token Graph refuses (401) is renewed once. Every call but
   * POST /users is repeatable (see Retries): the writes are PATCHes of a given body and DELETEs counting 404 as done.
   */
  private async call<T = Json>(
    method: string,
    path: string,
    body?: Json,
    secrets: readonly string[] = [],
    { notFoundIsDone = false, retries = 'repeatable' }: { notFoundIsDone?: boolean; retries?: Retries } = {},
  ): Promise<T | null> {
    for (let attempt = 1; ; attempt++) {
      const token = await this.accessToken();
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await this.sendRetrying(`${this.graphBase}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }, retries);
      const text = await response.text();
      if (response.status === 401 && attempt === 1) {
        this.token = null;
        continue;
      }
      if (response.status === 404 && notFoundIsDone) return null;
      if (!response.ok) {
        const { code, message } = graphError(text);
        throw this.failure(`Microsoft Graph a refusé ${method} ${path.split('?')[0]} (${response.status} ${code}) : ${message}`, response.status, code, secrets);
      }
      if (!text) return null;
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new GraphDirectoryError(`Microsoft Graph a répondu à ${method} ${path.split('?')[0]} autre chose que du JSON.`, 502, 'InvalidResponse');
      }
    }
  }

  /** The cached application token, renewed shortly before it expires; concurrent callers share one request. */
  private async accessToken(): Promise<string> {
    if (this.token && this.now() < this.token.expiresAt - TOKEN_RENEWAL_MARGIN_MS) return this.token.value;
    this.pendingToken ??= this.requestToken().finally(() => {
      this.pendingToken = null;
    });
    return this.pendingToken;
  }

  private async requestToken(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
      scope: GRAPH_SCOPE,
    });
    const response = await this.sendRetrying(
      this.tokenUrl,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form.toString() },
      'repeatable',
    );
    const text = await response.text();
    let parsed: Json = {};
    try {
      parsed = JSON.parse(text) as Json;
    } catch {
      // Not JSON (a proxy's page): reported by status below.
    }
    const accessToken = typeof parsed.access_token === 'string' ? parsed.access_token : null;
    if (!response.ok || !accessToken) {
      const code = typeof parsed.error === 'string' ? parsed.error : `HTTP ${response.status}`;
      const description = typeof parsed.error_description === 'string' ? parsed.error_description.split(/\r?\n/)[0] : 'réponse inattendue';
      throw this.failure(`Jeton Microsoft Graph refusé (${response.status} ${code}) : ${description}`, response.ok ? 502 : response.status, code, []);
    }
    const lifetime = Number(parsed.expires_in);
    this.token = { value: accessToken, expiresAt: this.now() + (Number.isFinite(lifetime) && lifetime > 0 ? lifetime : 3600) * 1000 };
    return accessToken;
  }

  /** send(), again after a 429 (and a 503 when `retries` allows) as Retry-After says, within this.retry; answers the last response. */
  private async sendRetrying(url: string, init: RequestInit, retries: Retries): Promise<Response> {
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      const response = await this.send(url, init);
      const retryable = response.status === 429 || (response.status === 503 && retries === 'repeatable');
      if (!retryable || attempt >= this.retry.maxAttempts) return response;
      const wait = retryAfterMs(response.headers.get('retry-after'), this.now()) ?? FIRST_BACKOFF_MS * 2 ** (attempt - 1);
      if (waited + wait > this.retry.maxTotalWaitMs) return response;
      await response.body?.cancel();
      waited += wait;
      await this.sleep(wait);
    }
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      // The cause (a socket or timeout error) carries no request content; the request is not echoed.
      const reason = error instanceof Error && error.name === 'TimeoutError' ? 'délai dépassé' : 'injoignable';
      throw new GraphDirectoryError(`Microsoft Graph ${reason} (${new URL(url).host}).`, 503, 'Unreachable');
    }
  }

  /** An error whose text can never carry the client secret (nor a generated password). */
  private failure(message: string, status: number, code: string, secrets: readonly string[]): GraphDirectoryError {
    let safe = message;
    for (const secret of [this.options.clientSecret, ...secrets]) if (secret) safe = safe.split(secret).join('[masqué]');
    return new GraphDirectoryError(safe, status, code);
  }
}

/** The directory of the configured provider: the local provider's table, else Microsoft Graph. */
export function identityDirectoryFor(config: Pick<ServerConfig, 'auth' | 'graph'>): IdentityDirectory {
  if (config.auth.kind === 'local') return new LocalIdentityDirectory();
  if (!config.graph) {
    throw new Error(`IDENTITY_PROVIDER=${config.auth.kind} needs an account directory: Missing required environment variable: GRAPH_TENANT_ID`);
  }
  return new GraphIdentityDirectory(config.graph);
}

/** Retry-After in milliseconds from `now`: whole seconds, or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Graph's error body: { error: { code, message } }. */
function graphError(text: string): { code: string; message: string } {
  try {
    const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    return {
      code: typeof parsed.error?.code === 'string' ? parsed.error.code : 'Unknown',
      message: typeof parsed.error?.message === 'string' ? parsed.error.message : 'erreur sans message',
    };
  } catch {
    return { code: 'Unknown', message: 'réponse illisible' };
  }
}

/** Graph's answer when another account already signs in with this e-mail. */
function isIdentityTaken(error: GraphDirectoryError): boolean {
  return (error.status === 400 || error.status === 409) && /another object with the same value for property/i.test(error.message);
}

const PASSWORD_CLASSES = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!@#$%^&*-_+=?'];

/** 32 characters drawn from every class B2C's strong-password rule counts, shuffled; nobody ever sees it. */
export function strongPassword(length = 32): string {
  const chars = PASSWORD_CLASSES.map((set) => set[randomInt(set.length)]!);
  const all = PASSWORD_CLASSES.join('');
  while (chars.length < length) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
