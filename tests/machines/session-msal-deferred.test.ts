// @vitest-environment jsdom
// MSAL loads when the session first needs it (issue 18): a returning person with an unexpired token cookie gets
// their first screen without MSAL's code; back from the provider, or without a usable token, MSAL starts first.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise } from 'xstate';
import type { IPublicClientApplication } from '@azure/msal-browser';
import { msalNeededAtStart, sessionActors } from '../../src/machines/session/session.actors';
import { POST_LOGIN_PATH } from '../../src/auth/sign-in-paths';
import { expireTokenCookie, readTokenCookie, writeTokenCookie } from '../../src/auth/token-cookie';
import { fakeApi } from '../ui/support/fake-api';

const jwt = (claims: object) => `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;
const valid = jwt({ sub: 'subject-bo', exp: Math.floor(Date.now() / 1000) + 3600 });
const expired = jwt({ sub: 'subject-bo', exp: Math.floor(Date.now() / 1000) - 10 });

function setup() {
  const instance = { handleRedirectPromise: vi.fn(async () => null), setActiveAccount: vi.fn() };
  const msal = vi.fn(async () => instance as unknown as IPublicClientApplication);
  const { actors } = sessionActors({ msal, api: fakeApi().client(), cookieDomain: null, passwordResetAuthority: null });
  const start = async () => {
    await toPromise(createActor(actors.initializeAuth).start());
    await toPromise(createActor(actors.handleRedirect).start());
  };
  return { msal, instance, start };
}

describe('MSAL at start', () => {
  afterEach(() => {
    expireTokenCookie(null);
    window.history.replaceState(null, '', '/');
  });

  it('is needed back from the provider, without a token, or with an expired one; not for an unexpired token elsewhere', () => {
    expect(msalNeededAtStart('/utilisateurs', valid)).toBe(false);
    expect(msalNeededAtStart('/dashboard', valid)).toBe(false);
    expect(msalNeededAtStart(POST_LOGIN_PATH, valid)).toBe(true);
    expect(msalNeededAtStart('/utilisateurs', null)).toBe(true);
    expect(msalNeededAtStart('/utilisateurs', expired)).toBe(true);
    expect(msalNeededAtStart('/utilisateurs', 'pas un jeton')).toBe(true);
  });

  it('is neither loaded nor asked about a redirect when a returning person opens a screen with an unexpired token', async () => {
    writeTokenCookie(valid, null);
    window.history.replaceState(null, '', '/utilisateurs');
    const { msal, instance, start } = setup();
    await start();
    expect(msal).not.toHaveBeenCalled();
    expect(instance.handleRedirectPromise).not.toHaveBeenCalled();
  });

  it('is loaded and handles the redirect back from the provider, and when the token is missing or expired', async () => {
    for (const [path, token] of [[POST_LOGIN_PATH, valid], ['/utilisateurs', null], ['/utilisateurs', expired]] as const) {
      if (token) writeTokenCookie(token, null);
      else expireTokenCookie(null);
      window.history.replaceState(null, '', path);
      const { msal, instance, start } = setup();
      await start();
      expect(msal).toHaveBeenCalled();
      expect(instance.handleRedirectPromise).toHaveBeenCalledTimes(1);
    }
  });

  // Second security review: MSAL is now first loaded when a returning person signs out. Its code may fail to load
  // (offline, or a chunk gone after a deployment): on a shared computer the next person must not find the session.
  it('forgets the token cookie and the cached profile when signing out, even when MSAL cannot be loaded', async () => {
    writeTokenCookie(valid, null);
    window.localStorage.setItem('portail.profile', JSON.stringify({ authId: 'subject-bo' }));
    const msal = vi.fn(async (): Promise<IPublicClientApplication> => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    const { actors } = sessionActors({ msal, api: fakeApi().client(), cookieDomain: null, passwordResetAuthority: null });
    await toPromise(createActor(actors.signOut).start()).catch(() => {});
    expect(readTokenCookie()).toBeNull();
    expect(window.localStorage.getItem('portail.profile')).toBeNull();
  });

  it("ends the provider's session with the account and its ID token read before the storage is cleared", async () => {
    writeTokenCookie(valid, null);
    const account = { homeAccountId: 'a', idToken: 'jeton-id' };
    const instance = {
      getActiveAccount: vi.fn(() => (window.localStorage.getItem('msal.account') ? account : null)),
      getAllAccounts: vi.fn(() => []),
      logoutRedirect: vi.fn(async () => {}),
    };
    window.localStorage.setItem('msal.account', 'a');
    const { actors } = sessionActors({ msal: async () => instance as unknown as IPublicClientApplication, api: fakeApi().client(), cookieDomain: null, passwordResetAuthority: null });
    await toPromise(createActor(actors.signOut).start());
    expect(instance.logoutRedirect).toHaveBeenCalledWith({ account, idTokenHint: 'jeton-id' });
    expect(readTokenCookie()).toBeNull();
    expect(window.localStorage.length).toBe(0);
  });
});
