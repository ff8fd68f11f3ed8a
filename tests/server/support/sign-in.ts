// Signing in through the real local provider, in-process: the authorization request, the French sign-in
// form's post, and (for a success) the code exchanged for tokens, as the SPA's MSAL does it.
import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './test-app.ts';

const REDIRECT_URI = 'https://localhost:8443/redirect.html';

/** The cookies the provider set, sent back on the next requests (paths ignored: the provider reads them by name). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  keep(answer: LightMyRequestResponse) {
    for (const line of ([] as string[]).concat(answer.headers['set-cookie'] ?? [])) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface SignInForm {
  /** The sign-in page's URL, /oidc/interaction/{uid}. */
  pageUrl: string;
  /** The sign-in page, as the browser loads it. */
  page(): Promise<LightMyRequestResponse>;
  /** Posts the form from this client address: the provider's answer (the page again, or a redirect). */
  post(email: string, password: string): Promise<LightMyRequestResponse>;
  /** After a successful post: follows the redirects and exchanges the code for the provider's tokens (a refresh token with offline_access). */
  tokens(afterPost: LightMyRequestResponse): Promise<{ id_token: string; access_token: string; refresh_token?: string }>;
  /** The provider's answer to a refresh-token grant. */
  refresh(refreshToken: string): Promise<LightMyRequestResponse>;
  /** A silent authorization request (prompt=none) with this browser's provider cookies: where the provider redirects. */
  silent(): Promise<URL>;
}

/** Starts a sign-in as the SPA would (PKCE, code flow) from `remoteAddress`, up to the French form. */
export async function openSignInForm(t: TestApp, remoteAddress = '127.0.0.1', scope = 'openid email profile'): Promise<SignInForm> {
  const jar = new CookieJar();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({ client_id: t.audience, redirect_uri: REDIRECT_URI, response_type: 'code', scope, code_challenge: challenge, code_challenge_method: 'S256', state: 's', nonce: 'n' });
  const start = await t.app.inject({ method: 'GET', url: `/oidc/auth?${query}`, remoteAddress });
  jar.keep(start);
  const pageUrl = String(start.headers.location);
  if (!pageUrl.startsWith('/oidc/interaction/')) throw new Error(`no sign-in page: ${start.statusCode} ${pageUrl}`);
  const get = async (url: string) => {
    const answer = await t.app.inject({ method: 'GET', url, headers: { cookie: jar.header() }, remoteAddress });
    jar.keep(answer);
    return answer;
  };
  return {
    pageUrl,
    page: () => get(pageUrl),
    async post(email, password) {
      const answer = await t.app.inject({
        method: 'POST',
        url: `${pageUrl}/login`,
        remoteAddress,
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email, password }).toString(),
      });
      jar.keep(answer);
      return answer;
    },
    async tokens(afterPost) {
      // The provider's own hops (resuming the authorization, the consent its interaction grants at once) up to the code.
      let resumed = await get(new URL(String(afterPost.headers.location), 'https://localhost:8443').pathname);
      for (let hop = 0; hop < 5 && String(resumed.headers.location ?? '').startsWith('/oidc/'); hop++) resumed = await get(String(resumed.headers.location));
      const code = new URL(String(resumed.headers.location), 'https://localhost:8443').searchParams.get('code');
      if (!code) throw new Error(`no code after the sign-in: ${resumed.statusCode} ${String(resumed.headers.location)}`);
      const exchange = await t.app.inject({
        method: 'POST',
        url: '/oidc/token',
        remoteAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: t.audience, code_verifier: verifier }).toString(),
      });
      if (exchange.statusCode !== 200) throw new Error(`token exchange: ${exchange.statusCode} ${exchange.body}`);
      return exchange.json();
    },
    refresh(refreshToken) {
      return t.app.inject({
        method: 'POST',
        url: '/oidc/token',
        remoteAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: t.audience }).toString(),
      });
    },
    async silent() {
      const silentVerifier = randomBytes(32).toString('base64url');
      const params = new URLSearchParams({
        client_id: t.audience, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'openid email profile', prompt: 'none', state: 's2', nonce: 'n2',
        code_challenge: createHash('sha256').update(silentVerifier).digest('base64url'), code_challenge_method: 'S256',
      });
      let answer = await get(`/oidc/auth?${params}`);
      for (let hop = 0; hop < 5 && String(answer.headers.location ?? '').startsWith('/oidc/'); hop++) answer = await get(String(answer.headers.location));
      if (!answer.headers.location) throw new Error(`no redirect from the silent request: ${answer.statusCode} ${answer.body.slice(0, 500)}`);
      return new URL(String(answer.headers.location), 'https://localhost:8443');
    },
  };
}
