import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { createActor, fromPromise } from 'xstate';
import { sessionMachine, type SessionProfile } from '../src/machines/session/session.machine';
import { warmUpCaches } from '../src/warm-up';
import { rolesKeys } from '../src/api/roles';
import { createApiClient } from '../src/api/client';

const profile = { id: 'u', authId: 's', firstName: 'A', lastName: 'B', email: 'a@b.fr', isActive: true, userType: 'BACKOFFICE', permissions: [] } as SessionProfile;

function session(signedIn: boolean) {
  const never = () => fromPromise(() => new Promise<never>(() => {}));
  return createActor(
    sessionMachine.provide({
      actors: {
        initializeAuth: fromPromise<void>(async () => {}),
        handleRedirect: fromPromise<void>(async () => {}),
        readToken: fromPromise(async () => ({ token: signedIn ? 'e30.eyJzdWIiOiJzIiwiZXhwIjo5OTk5OTk5OTk5fQ.x' : null, expired: false })) as never,
        login: never() as never,
        acquireToken: never() as never,
        loadProfile: fromPromise(async () => profile) as never,
        signOut: never() as never,
      },
    }),
    { input: { cachedProfile: null } },
  ).start();
}

afterEach(() => vi.useRealTimers());

describe('cache warm-up at start-up', () => {
  it('loads the roles 1 s after someone is signed in', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify([{ id: 1, code: 'COMPTABLE', name: 'Comptable', nomRole: 'Comptable', type: 'EXTERNAL', metadata: null, permissions: [] }]), { headers: { 'content-type': 'application/json' } }));
    const queryClient = new QueryClient();
    const actor = session(true);
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('signedIn'));
    vi.useFakeTimers();
    warmUpCaches(actor, queryClient, createApiClient({ baseUrl: 'https://portal.test', getToken: () => 't', fetch }));
    expect(fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    vi.useRealTimers();
    await vi.waitFor(() => expect(queryClient.getQueryData(rolesKeys.all)).toHaveLength(1));
  });

  it('does nothing while nobody is signed in', async () => {
    const fetch = vi.fn(async () => new Response('{}', { status: 500 }));
    const queryClient = new QueryClient();
    const actor = session(false);
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('signedOut'));
    vi.useFakeTimers();
    const stop = warmUpCaches(actor, queryClient, createApiClient({ baseUrl: 'https://portal.test', getToken: () => null, fetch }), 10);
    // Five times the delay, on the fake clock (a timer started anyway would have fired and called the API).
    await vi.advanceTimersByTimeAsync(50);
    expect(fetch).not.toHaveBeenCalled();
    stop();
  });
});
