import { fromPromise } from 'xstate';
import type { IPublicClientApplication } from '@azure/msal-browser';
import { ApiFailure, type ApiClient } from '../../api/client';
import { fetchCurrentUser, type CurrentUser } from '../../api/users';
import { decodeTokenClaims, expireTokenCookie, isTokenUnexpired, readTokenCookie, writeTokenCookie } from '../../auth/token-cookie';
import { POST_LOGIN_PATH, SIGN_IN_SCOPES } from '../../auth/sign-in-paths';
import { frShell as fr } from '../../i18n/fr-shell';
import type { ProfileLoadFailure, SessionProfile, TokenReading } from './session.machine';

export const PROFILE_CACHE_KEY = 'portail.profile';

export interface SessionDependencies {
  /** MSAL, loaded and initialized once, when first asked for (its code is not the first screen's: see msalNeededAtStart). */
  msal: () => Promise<IPublicClientApplication>;
  api: ApiClient;
  cookieDomain: string | null;
  passwordResetAuthority: string | null;
  /** GET /users/me already under way since the page started (startEarlyProfile): the first profile load of that token takes its answer. */
  earlyProfile?: EarlyProfile | null;
}

/** The profile asked for as the page starts, with the token cookie it found, while MSAL is still starting (issue 18). */
export interface EarlyProfile {
  token: string;
  answer: Promise<CurrentUser>;
}

/**
 * Asks for the profile at once when the page starts with an unexpired token cookie: the request runs while MSAL
 * starts and handles the redirect, instead of after them. The session machine decides as before; its first
 * profile load of the same token takes this answer (its failure included) rather than asking again.
 */
export function startEarlyProfile(api: ApiClient, token: string | null, now = Date.now()): EarlyProfile | null {
  if (!token || !isTokenUnexpired(token, now)) return null;
  const answer = fetchCurrentUser(api);
  // Its failure is judged when the machine takes it; until then it is not an unhandled rejection.
  answer.catch(() => {});
  return { token, answer };
}

/**
 * Whether the page starts MSAL before anything else: back from the provider (the post-login page), or without an
 * unexpired token cookie. Otherwise a returning person's first screen needs only the cookie's token and their
 * profile, and MSAL, about a third of the shell's code, loads when first needed (renewing the token, signing out):
 * on a phone its parsing no longer holds the first screen (issue 18).
 */
export function msalNeededAtStart(pathname: string, token: string | null, now = Date.now()): boolean {
  return pathname === POST_LOGIN_PATH || token === null || !isTokenUnexpired(token, now);
}

const neededNow = () => msalNeededAtStart(window.location.pathname, readTokenCookie());

/** The side effects of the session machine, supplied with sessionMachine.provide({ actors, actions }). */
export function sessionActors(deps: SessionDependencies) {
  const { msal, api, cookieDomain } = deps;
  let earlyProfile = deps.earlyProfile ?? null;
  return {
    actors: {
      initializeAuth: fromPromise<void>(async () => {
        if (neededNow()) await msal();
      }),
      handleRedirect: fromPromise<void>(async () => {
        if (!neededNow()) return;
        const instance = await msal();
        try {
          const result = await instance.handleRedirectPromise();
          if (result?.account) instance.setActiveAccount(result.account);
        } catch (error) {
          // B2C: 'forgot password' answers AADB2C90118; the reset policy takes over.
          if (deps.passwordResetAuthority && String((error as Error)?.message).includes('AADB2C90118')) {
            await instance.loginRedirect({ scopes: SIGN_IN_SCOPES, authority: deps.passwordResetAuthority, redirectStartPage: `${window.location.origin}${POST_LOGIN_PATH}` });
            return;
          }
          throw error;
        }
      }),
      readToken: fromPromise<TokenReading>(async () => {
        const token = readTokenCookie();
        return { token, expired: token !== null && !isTokenUnexpired(token) };
      }),
      login: fromPromise<void, { forceLogin: boolean }>(async ({ input }) => {
        await (await msal()).loginRedirect({
          scopes: SIGN_IN_SCOPES,
          redirectStartPage: `${window.location.origin}${POST_LOGIN_PATH}`,
          // After a failed post-login, reusing the provider's session would only fail again.
          ...(input.forceLogin ? { prompt: 'login' } : {}),
        });
      }),
      acquireToken: fromPromise<string>(async () => {
        const instance = await msal();
        const account = instance.getActiveAccount() ?? instance.getAllAccounts()[0];
        if (!account) throw new Error('no account');
        let result = await instance.acquireTokenSilent({ scopes: SIGN_IN_SCOPES, account });
        // A cached ID token may have expired while the access token has not: ask for a fresh one.
        if (!isTokenUnexpired(result.idToken)) result = await instance.acquireTokenSilent({ scopes: SIGN_IN_SCOPES, account, forceRefresh: true });
        const token = result.idToken;
        if (!decodeTokenClaims(token)?.sub) throw new Error('token without subject');
        instance.setActiveAccount(result.account ?? account);
        writeTokenCookie(token, cookieDomain);
        return token;
      }),
      loadProfile: fromPromise<SessionProfile, { token: string }>(async ({ input }) => {
        // The answer asked for as the page started, once, for that token only.
        const early = earlyProfile && earlyProfile.token === input.token ? earlyProfile.answer : null;
        earlyProfile = null;
        try {
          return (await (early ?? fetchCurrentUser(api))) as SessionProfile;
        } catch (error) {
          const status = error instanceof ApiFailure ? error.status : 0;
          const failure: ProfileLoadFailure = {
            status,
            kind: status === 0 ? 'network' : status === 502 || status === 503 || status === 504 ? 'backendUnavailable' : 'rejected',
          };
          throw failure;
        }
      }),
      signOut: fromPromise<void>(async () => {
        // MSAL may be first loaded here (msalNeededAtStart), and its code may fail to load: the browser forgets the
        // session whatever happens (a shared computer's next person finds no token nor profile), then the provider's.
        const loaded = await msal().then(
          (instance) => ({ instance, failure: null }),
          (failure: unknown) => ({ instance: null, failure }),
        );
        const { instance } = loaded;
        const account = instance ? (instance.getActiveAccount() ?? instance.getAllAccounts()[0] ?? null) : null;
        const idTokenHint = account?.idToken;
        window.localStorage.clear();
        window.sessionStorage.clear();
        expireTokenCookie(cookieDomain);
        if (!instance) throw loaded.failure;
        await instance.logoutRedirect({ account, idTokenHint });
      }),
    },
    actions: {
      cacheProfile: (_: unknown, profile: SessionProfile) => {
        window.localStorage.setItem(PROFILE_CACHE_KEY, JSON.stringify(profile));
      },
      forgetToken: () => expireTokenCookie(cookieDomain),
      notifyDeactivated: () => window.alert(fr.auth.accountDisabled),
    },
  };
}

export function readCachedProfile(): SessionProfile | null {
  try {
    const raw = window.localStorage.getItem(PROFILE_CACHE_KEY);
    return raw ? (JSON.parse(raw) as SessionProfile) : null;
  } catch {
    return null;
  }
}
