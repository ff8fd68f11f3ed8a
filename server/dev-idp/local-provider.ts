import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { findIdentityByEmail, findIdentityBySubject, verifyLocalCredentials } from '../identity/local-accounts.ts';
import { verifyPassword } from '../identity/passwords.ts';
import type { SigningKeys } from './signing-keys.ts';
import { logoutPage, messagePage, signInPage, type DemoAccountLine } from './pages.ts';
import { registerAccountSetupRoutes } from './account-setup.ts';
import { registerDevMailboxRoutes } from './dev-mailbox.ts';
import { policyEndingRevokedSessions, signInSecondAfter, tokenRevoked } from './session-revocation.ts';
import { createSignInThrottle, TOO_MANY_SIGN_IN_ATTEMPTS } from './sign-in-throttle.ts';
import { createOidcAdapter } from './oidc-adapter.ts';
import type { HitCounter } from '../db/rate-limit-hits.ts';
import type { SecurityHeaders } from '../plugins/security-headers.ts';

export interface LocalProviderOptions {
  issuer: string;
  clientId: string;
  publicOrigin: string;
  postLogoutRedirectUris: string[];
  keys: SigningKeys;
  db: Kysely<Database>;
  /** Lifetime of ID and access tokens, in seconds (the ID token is the bearer token: never shorter). */
  tokenTtlSeconds?: number;
}

const SCOPES = 'openid email profile offline_access';

/**
 * A real OpenID Connect provider for development and tests, mounted at /oidc on
 * the portal's own origin, signing in the accounts of the identity_accounts table.
 */
export function createLocalProvider(options: LocalProviderOptions): Provider {
  const ttl = options.tokenTtlSeconds ?? 3600;
  const configuration: Configuration = {
    clients: [
      {
        client_id: options.clientId,
        client_name: 'Portail Habilitations',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        require_auth_time: true,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${options.publicOrigin}/redirect.html`],
        post_logout_redirect_uris: options.postLogoutRedirectUris,
      },
    ],
    // Sessions, interactions, codes, tokens and grants in the database: every node's, and kept across restarts.
    adapter: createOidcAdapter(options.db),
    jwks: options.keys.privateJwks as Configuration['jwks'],
    cookies: { keys: options.keys.cookieKeys },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    // Name and email in the ID token: the portal sends the ID token as its bearer token.
    conformIdTokenClaims: false,
    scopes: ['openid', 'offline_access', 'email', 'profile'],
    pkce: { required: () => true },
    ttl: {
      AccessToken: ttl,
      IdToken: ttl,
      AuthorizationCode: 60,
      Interaction: 3600,
      Session: 12 * 3600,
      Grant: 12 * 3600,
      RefreshToken: 12 * 3600,
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = 'html';
          ctx.body = logoutPage(form);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = messagePage('Déconnexion', 'Vous êtes déconnecté.', options.postLogoutRedirectUris[0] ?? '/');
        },
      },
    },
    interactions: {
      policy: policyEndingRevokedSessions(options.db),
      url: (_ctx, interaction) => `/oidc/interaction/${interaction.uid}`,
    },
    clientBasedCORS: (_ctx, origin) => origin === options.publicOrigin,
    // offline_access is otherwise dropped unless consent is prompted.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    findAccount: async (_ctx, subject, token) => {
      const identity = await findIdentityBySubject(options.db, subject);
      if (!identity || !identity.enabled) return undefined;
      if (tokenRevoked(identity.sessionsRevokedAt, token)) return undefined;
      return {
        accountId: identity.subject,
        claims: async () => ({
          sub: identity.subject,
          email: identity.email,
          email_verified: true,
          name: identity.displayName,
        }),
      };
    },
    renderError: async (ctx: KoaContextWithOIDC, out) => {
      ctx.type = 'html';
      ctx.body = messagePage('Erreur de connexion', `La connexion a échoué : ${String(out.error_description ?? out.error)}.`, '/');
    },
  };
  const provider = new Provider(options.issuer, configuration);
  // oidc-provider drops offline_access from a request without prompt=consent, and the refresh
  // token then refuses the portal's silent renewals (which ask for it). The portal is the provider's
  // only, first-party client: its interactive sign-in is treated as prompt=consent, and the consent
  // is granted at once by the interaction pages (grantAll), never shown.
  provider.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/auth') {
      const scope = typeof ctx.query.scope === 'string' ? ctx.query.scope.split(' ') : [];
      const prompts = new Set(typeof ctx.query.prompt === 'string' ? ctx.query.prompt.split(' ').filter(Boolean) : []);
      // Silent requests (prompt=none) stay silent; 'login' (asking for the password again) keeps offline_access too.
      if (scope.includes('offline_access') && !prompts.has('none') && !prompts.has('consent')) {
        const query = new URLSearchParams(ctx.querystring);
        query.set('prompt', [...prompts, 'consent'].join(' '));
        ctx.querystring = query.toString();
        // oidc-provider finds its mount path by matching the rewritten URL in the original one.
        (ctx.req as RawRequest).originalUrl = `/oidc${ctx.url}`;
      }
    }
    await next();
  });
  return provider;
}

/** The first-party grant of every scope the portal asked for. */
async function grantAll(provider: Provider, accountId: string, clientId: string, existingGrantId: string | undefined): Promise<string> {
  const grant = (existingGrantId ? await provider.Grant.find(existingGrantId) : undefined) ?? new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(SCOPES);
  return grant.save();
}

type RawRequest = IncomingMessage & { originalUrl?: string };

/** Mounts the provider under /oidc and serves its French sign-in pages. */
export interface MountOptions {
  db: Kysely<Database>;
  /** The server's security headers, also on the pages the provider renders itself. */
  securityHeaders: SecurityHeaders;
  demoAccounts: readonly DemoAccountLine[];
  /** HMAC secret of the account set-up links (/oidc/account/setup). */
  accountSetupSecret: string;
  /** Mounts the local mailbox (/oidc/dev/mailbox), which shows every e-mail with its set-up link: development and tests only. */
  devMailbox: boolean;
  /** A sign-in refused (counted in the metrics). */
  onSignInFailure?: (reason: 'credentials' | 'throttled') => void;
  /** The shared counts (the database's) that the sign-in throttle keeps its failures in. */
  hits: HitCounter;
}

export async function mountLocalProvider(
  app: FastifyInstance,
  provider: Provider,
  { db, securityHeaders, demoAccounts, accountSetupSecret, hits, devMailbox, onSignInFailure = () => {} }: MountOptions,
): Promise<void> {
  const callback = provider.callback() as (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  // Failed sign-ins per account, whatever the address (5, then growing delays), counted in the database across the nodes.
  const throttle = createSignInThrottle({ counter: hits });
  /** Takes the answer out of Fastify's hands (its onSend hook will not run): the same headers, set on the raw answer. */
  const handOver = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    for (const [name, value] of securityHeaders.for(request.url)) reply.raw.setHeader(name, value);
    reply.raw.setHeader('x-request-id', request.id);
  };

  // Everything under /oidc but the interaction, asset, account set-up and mailbox pages is the provider's (Koa) business:
  // hand the raw request over before Fastify parses a body.
  app.addHook('onRequest', async (request, reply) => {
    const url = request.raw.url ?? '';
    if (!url.startsWith('/oidc/') || ['/oidc/interaction/', '/oidc/assets/', '/oidc/account/', '/oidc/dev/'].some((own) => url.startsWith(own))) return;
    handOver(request, reply);
    const raw = request.raw as RawRequest;
    raw.originalUrl = url;
    raw.url = url.slice('/oidc'.length);
    await callback(raw, reply.raw);
  });

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_req, body, done) => {
      // NUL characters mean nothing in a form and PostgreSQL refuses them in text: drop them.
      done(null, Object.fromEntries([...new URLSearchParams(String(body))].map(([key, value]) => [key, value.replaceAll(String.fromCharCode(0), '')])));
    });

    registerAccountSetupRoutes(scope, { db, secret: accountSetupSecret });
    if (devMailbox) registerDevMailboxRoutes(scope, { db });

    scope.get('/oidc/assets/auto-submit.js', async (_request, reply) => {
      reply.type('text/javascript').header('cache-control', 'no-cache');
      return "document.querySelector('[data-auto-submit]')?.click();\n";
    });

    scope.get<{ Params: { uid: string } }>('/oidc/interaction/:uid', async (request, reply) => {
      const details = await interactionOrNull(provider, request.raw, reply.raw);
      if (!details) return reply.code(400).type('text/html').send(expiredPage());
      if (details.prompt.name === 'consent' && details.session?.accountId) {
        const grantId = await grantAll(provider, details.session.accountId, String(details.params.client_id), details.grantId);
        handOver(request, reply);
        await provider.interactionFinished(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
        return;
      }
      const loginHint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
      return reply.type('text/html').send(signInPage({ uid: request.params.uid, email: loginHint, error: null, demoAccounts, mailbox: devMailbox }));
    });

    scope.post<{ Params: { uid: string }; Body: Record<string, string> }>('/oidc/interaction/:uid/login', async (request, reply) => {
      const details = await interactionOrNull(provider, request.raw, reply.raw);
      if (!details) return reply.code(400).type('text/html').send(expiredPage());
      const email = String(request.body?.email ?? '').trim();
      const password = String(request.body?.password ?? '');
      const page = (error: string) => signInPage({ uid: request.params.uid, email, error, demoAccounts, mailbox: devMailbox });
      const waitSeconds = await throttle.secondsBlocked(email);
      // Refused before any password check: a guesser learns nothing more in this minute.
      if (waitSeconds > 0) onSignInFailure('throttled');
      if (waitSeconds > 0) return reply.code(429).header('retry-after', waitSeconds).type('text/html').send(page(TOO_MANY_SIGN_IN_ATTEMPTS));
      // The right password of a disabled account (a deactivated user) is told so rather than 'incorrect'.
      const disabled = email && password ? await disabledWithThisPassword(db, email, password) : null;
      const identity = email && password && disabled === null ? await verifyLocalCredentials(db, email, password) : null;
      if (!identity) {
        if (email) await throttle.recordFailure(email);
        onSignInFailure('credentials');
        return reply
          .code(disabled ? 403 : 401)
          .type('text/html')
          .send(page(disabled ? ACCOUNT_DISABLED : 'Adresse email ou mot de passe incorrect.'));
      }
      await throttle.recordSuccess(email);
      const grantId = await grantAll(provider, identity.subject, String(details.params.client_id), undefined);
      const revokedAt = (await findIdentityBySubject(db, identity.subject))?.sessionsRevokedAt ?? null;
      handOver(request, reply);
      await provider.interactionFinished(
        request.raw,
        reply.raw,
        { login: { accountId: identity.subject, ts: signInSecondAfter(revokedAt) }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    });
  });
}

export const ACCOUNT_DISABLED = 'Votre compte est désactivé.';

/**
 * Null unless the account is disabled and has a password; then whether the password is its own. One
 * password check either way (as verifyLocalCredentials), and nobody learns that an account is disabled
 * without its password.
 */
async function disabledWithThisPassword(db: Kysely<Database>, email: string, password: string): Promise<boolean | null> {
  const account = await findIdentityByEmail(db, email);
  if (!account || account.enabled || !account.hasPassword) return null;
  const row = await db.selectFrom('identity_accounts').select('password_hash').where('subject', '=', account.subject).executeTakeFirst();
  return row?.password_hash ? verifyPassword(password, row.password_hash) : false;
}

async function interactionOrNull(provider: Provider, req: IncomingMessage, res: ServerResponse) {
  try {
    return await provider.interactionDetails(req, res);
  } catch {
    return null;
  }
}

function expiredPage(): string {
  return messagePage('Session expirée', 'Cette page de connexion a expiré. Revenez au portail pour vous connecter à nouveau.', '/authentication/sign-in');
}
