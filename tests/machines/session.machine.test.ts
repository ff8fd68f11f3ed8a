import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyActorLogic, type SnapshotFrom } from 'xstate';
import { sessionMachine, SESSION_MESSAGES, type SessionProfile, type TokenReading } from '../../src/machines/session/session.machine';
import { guardSession, interactionStatus, sessionNotice } from '../../src/machines/session/session.selectors';
import { describeMachineModel } from '../model/harness';
import { activeProfile, failure, inactiveProfile, model, never, reading, tokenOfAnother, tokenOfClaire } from './session.model';

describeMachineModel('session machine (model)', model);

/** A session whose actors answer at once, as the app's do. */
function runningSession(overrides: Partial<Record<'readToken' | 'loadProfile', AnyActorLogic>>, cachedProfile: SessionProfile | null = null) {
  const machine = sessionMachine.provide({
    actors: {
      initializeAuth: fromPromise<void>(async () => {}),
      handleRedirect: fromPromise<void>(async () => {}),
      readToken: (overrides.readToken ?? fromPromise(async () => reading(tokenOfClaire))) as never,
      login: never<void, { forceLogin: boolean }>(),
      acquireToken: fromPromise(async () => tokenOfClaire),
      loadProfile: (overrides.loadProfile ?? fromPromise(async () => activeProfile)) as never,
      signOut: fromPromise<void>(async () => {}),
    },
  });
  return createActor(machine, { input: { cachedProfile }, clock: { setTimeout: () => 0, clearTimeout: () => {} } as never }).start();
}

const settled = (actor: ReturnType<typeof runningSession>, state: string) =>
  new Promise<SnapshotFrom<typeof sessionMachine>>((resolve) => {
    const check = (s: SnapshotFrom<typeof sessionMachine>) => s.matches(state as never) && resolve(s);
    check(actor.getSnapshot());
    actor.subscribe(check);
  });

describe('session machine, with actors that answer', () => {
  it('signs in from a valid cookie and hands the guard the profile', async () => {
    const actor = runningSession({});
    const snapshot = await settled(actor, 'signedIn');
    expect(guardSession(snapshot)).toEqual({ status: 'ready', user: activeProfile });
    expect(interactionStatus(snapshot)).toBe('none');
    expect(sessionNotice(snapshot)).toBeNull();
  });

  it('keeps the cached profile with the restart message when the server is unavailable', async () => {
    const actor = runningSession({ loadProfile: fromPromise(async () => Promise.reject(failure('backendUnavailable', 503))) }, activeProfile);
    const snapshot = await settled(actor, 'signedIn');
    expect(snapshot.context.usingCache).toBe(true);
    expect(sessionNotice(snapshot)).toBe('The server is restarting. Please refresh the page in a moment. (Using cached data)');
  });

  it('has no user after a network failure without a cached profile, and says why', async () => {
    const actor = runningSession({ loadProfile: fromPromise(async () => Promise.reject(failure('network', 0))) });
    const snapshot = await settled(actor, 'signedOut');
    expect(guardSession(snapshot)).toEqual({ status: 'ready', user: null });
    expect(snapshot.context.error).toBe(SESSION_MESSAGES.network);
  });

  it('does not show the cached profile of another person when the server is unavailable', async () => {
    const actor = runningSession(
      { readToken: fromPromise(async () => reading(tokenOfAnother)), loadProfile: fromPromise(async () => Promise.reject(failure('backendUnavailable', 503))) },
      activeProfile,
    );
    const snapshot = await settled(actor, 'signedOut');
    expect(guardSession(snapshot).user).toBeNull();
    expect(snapshot.context.error).toBe(SESSION_MESSAGES.backendUnavailable);
  });

  // Second security review: a returning person's cookie is read without MSAL (msalNeededAtStart). A token the server
  // refuses (forged, expired there, a deleted person's) ends the session; the cached profile of its subject never shows.
  it("forgets a token the server refuses and never shows its subject's cached profile", async () => {
    let forgotten = 0;
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          initializeAuth: fromPromise<void>(async () => {}),
          handleRedirect: fromPromise<void>(async () => {}),
          readToken: fromPromise(async () => reading(tokenOfClaire)),
          login: never<void, { forceLogin: boolean }>(),
          acquireToken: fromPromise(async () => tokenOfClaire),
          loadProfile: fromPromise<SessionProfile, { token: string }>(async () => Promise.reject(failure('rejected', 401))),
          signOut: fromPromise<void>(async () => {}),
        },
        actions: { forgetToken: () => void (forgotten += 1) },
      }),
      { input: { cachedProfile: activeProfile }, clock: { setTimeout: () => 0, clearTimeout: () => {} } as never },
    ).start();
    const snapshot = await settled(actor, 'signedOut');
    expect(guardSession(snapshot).user).toBeNull();
    expect(snapshot.context.profile).toBeNull();
    expect(forgotten).toBe(1);
  });

  it('stops at deactivated for an inactive account', async () => {
    const actor = runningSession({ loadProfile: fromPromise(async () => inactiveProfile) });
    const snapshot = await settled(actor, 'deactivated');
    expect(guardSession(snapshot).user).toBeNull();
  });

  it('reloads the profile with the same token when asked, keeping the person shown meanwhile', async () => {
    let answer = activeProfile;
    let resolveSecond: (profile: SessionProfile) => void = () => {};
    let loads = 0;
    const actor = runningSession({
      loadProfile: fromPromise(async () => {
        loads += 1;
        return loads === 1 ? answer : new Promise<SessionProfile>((resolve) => (resolveSecond = resolve));
      }),
    });
    await settled(actor, 'signedIn');
    answer = { ...activeProfile, firstName: 'Claire-Marie' };
    actor.send({ type: 'session.reloadProfile' });
    expect(actor.getSnapshot().value).toBe('loadingProfile');
    expect(guardSession(actor.getSnapshot()).user).toBe(activeProfile);
    resolveSecond(answer);
    const snapshot = await settled(actor, 'signedIn');
    expect(loads).toBe(2);
    expect(snapshot.context.profile?.firstName).toBe('Claire-Marie');
  });

  it('reports loading to the guard until the profile is known', () => {
    const actor = runningSession({ readToken: never<TokenReading>() });
    expect(guardSession(actor.getSnapshot())).toEqual({ status: 'loading', user: null });
    expect(interactionStatus(actor.getSnapshot())).toBe('startup');
  });
});
