// The returning person's profile asked for as the page starts, while MSAL starts (issue 18): one request, taken once.
import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import type { IPublicClientApplication } from '@azure/msal-browser';
import { sessionActors, startEarlyProfile, type EarlyProfile } from '../../src/machines/session/session.actors';
import { fakeApi, type AnswerOf } from '../ui/support/fake-api';

const jwt = (claims: object) => `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;
const valid = jwt({ sub: 'subject-bo', exp: Math.floor(Date.now() / 1000) + 3600 });
const other = jwt({ sub: 'subject-bo', exp: Math.floor(Date.now() / 1000) + 7200 });
const expired = jwt({ sub: 'subject-bo', exp: Math.floor(Date.now() / 1000) - 10 });

const me: AnswerOf<'get', '/api/v2/users/me'> = {
  status: 200,
  body: { id: '00000000-0000-4000-8000-0000000000b0', authId: 'subject-bo', email: 'backoffice@portail.test', firstName: 'Béatrice', lastName: 'Marchand', isActive: true, userType: 'BACKOFFICE', permissions: [{ code: 'USER_LIST' }], organizations: [], lastLoginAt: null, pendingEmail: null },
};

function setup(answer: () => AnswerOf<'get', '/api/v2/users/me'> = () => me) {
  const server = fakeApi().on('get', '/api/v2/users/me', answer);
  const api = server.client();
  const profileCalls = () => server.calls.filter((c) => c.route === '/api/v2/users/me').length;
  const load = (early: EarlyProfile | null) => {
    const { actors } = sessionActors({ msal: () => Promise.resolve({} as IPublicClientApplication), api, cookieDomain: null, passwordResetAuthority: null, earlyProfile: early });
    return (token: string) => toPromise(createActor(actors.loadProfile, { input: { token } }).start());
  };
  return { api, profileCalls, load };
}

describe('the profile asked for as the page starts', () => {
  it('asks once for an unexpired token cookie, and the first load of that token takes the answer without asking again', async () => {
    const { api, profileCalls, load } = setup();
    const early = startEarlyProfile(api, valid);
    expect(early).not.toBeNull();
    const loadProfile = load(early);
    await expect(loadProfile(valid)).resolves.toMatchObject({ email: 'backoffice@portail.test' });
    expect(profileCalls()).toBe(1);
    // Taken once: a later load (a refresh of the profile) asks again.
    await loadProfile(valid);
    expect(profileCalls()).toBe(2);
  });

  it('is not used for another token: that load asks for itself', async () => {
    const { api, profileCalls, load } = setup();
    const loadProfile = load(startEarlyProfile(api, valid));
    await loadProfile(other);
    expect(profileCalls()).toBe(2);
  });

  it('asks nothing without a token cookie, or with an expired one', () => {
    const { api, profileCalls } = setup();
    expect(startEarlyProfile(api, null)).toBeNull();
    expect(startEarlyProfile(api, expired)).toBeNull();
    expect(profileCalls()).toBe(0);
  });

  it("hands its failure to the machine as the load's own failure (the server unavailable)", async () => {
    const { api, load } = setup(() => ({ status: 503, body: { error: 'ServiceUnavailable', message: 'Service indisponible.', requestId: 'r' } }));
    const loadProfile = load(startEarlyProfile(api, valid));
    await expect(loadProfile(valid)).rejects.toEqual({ status: 503, kind: 'backendUnavailable' });
  });

  // Second security review: the early answer is the server's word. A token it refuses (401: forged, expired there, or a
  // deleted person's) is handed to the machine as refused, which forgets it and never uses a cached profile.
  it('hands a refused token to the machine as refused, never as the server being unavailable', async () => {
    const { api, load } = setup(() => ({ status: 401, body: { error: 'Unauthorized', message: 'Jeton invalide.', requestId: 'r' } }) as never);
    const loadProfile = load(startEarlyProfile(api, valid));
    await expect(loadProfile(valid)).rejects.toEqual({ status: 401, kind: 'rejected' });
  });
});
