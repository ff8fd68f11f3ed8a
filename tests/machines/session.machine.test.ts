import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyActorLogic, type SnapshotFrom } from 'xstate';
import { sessionMachine, SESSION_MESSAGES, type SessionProfile, type ProfileLoadFailure } from '../../src/machines/session/session.machine';
import { guardSession, interactionStatus, sessionNotice } from '../../src/machines/session/session.selectors';
import { describeMachineModel, doneEvent, errorEvent, type ModelEvent } from '../model/harness';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

/** The machine with actors that never settle: the model sends their done and error events itself. */
const modelMachine = sessionMachine.provide({
  actors: {
    initializeAuth: never<void>(),
    handleRedirect: never<void>(),
    readToken: never<string | null>(),
    login: never<void>(),
    acquireToken: never<string>(),
    loadProfile: never<SessionProfile, { token: string }>(),
    signOut: never<void>(),
  },
});

const activeProfile: SessionProfile = {
  id: 'u-1',
  firstName: 'Claire',
  lastName: 'Martin',
  email: 'backoffice@portail.test',
  isActive: true,
  userType: 'BACKOFFICE',
  permissions: [{ code: 'USER_LIST' }],
};
const inactiveProfile: SessionProfile = { ...activeProfile, id: 'u-2', email: 'inactif@portail.test', isActive: false, userType: 'ORGANIZATION' };
const failure = (kind: ProfileLoadFailure['kind'], status: number): ProfileLoadFailure => ({ kind, status });

const events: ModelEvent<typeof modelMachine>[] = [
  { type: 'session.signIn' },
  { type: 'session.completeLogin' },
  { type: 'session.signOut' },
  { type: 'session.storageChanged' },
  doneEvent('initializeAuth'),
  errorEvent('initializeAuth', new Error('msal')),
  doneEvent('handleRedirect'),
  errorEvent('handleRedirect', new Error('state mismatch')),
  doneEvent('readToken', 'token-a'),
  doneEvent('readToken', 'token-b'),
  doneEvent('readToken', null),
  errorEvent('readToken', new Error('cookie')),
  errorEvent('login', new Error('popup blocked')),
  doneEvent('acquireToken', 'token-a'),
  errorEvent('acquireToken', new Error('login_required')),
  doneEvent('loadProfile', activeProfile),
  doneEvent('loadProfile', inactiveProfile),
  errorEvent('loadProfile', failure('backendUnavailable', 503)),
  errorEvent('loadProfile', failure('network', 0)),
  errorEvent('loadProfile', failure('rejected', 401)),
  doneEvent('signOut'),
  errorEvent('signOut', new Error('navigation')),
];

describeMachineModel('session machine (model)', {
  machine: modelMachine,
  inputs: { withoutCachedProfile: { cachedProfile: null }, withCachedProfile: { cachedProfile: activeProfile } },
  events,
  serializeState: (s: SnapshotFrom<typeof modelMachine>) =>
    JSON.stringify([s.value, s.context.token, s.context.profile?.id ?? null, s.context.cachedProfile?.id ?? null, s.context.usingCache, s.context.error]),
  maxSimplePaths: 60,
  describeEvent: (event) => ('output' in event && event.output !== undefined ? `${event.type}(${JSON.stringify(event.output).slice(0, 24)})` : event.type),
});

/** A session whose actors answer at once, as the app's do. */
function runningSession(overrides: Partial<Record<'readToken' | 'loadProfile', AnyActorLogic>>, cachedProfile: SessionProfile | null = null) {
  const machine = sessionMachine.provide({
    actors: {
      initializeAuth: fromPromise<void>(async () => {}),
      handleRedirect: fromPromise<void>(async () => {}),
      readToken: (overrides.readToken ?? fromPromise(async () => 'token-a')) as never,
      login: never<void>(),
      acquireToken: fromPromise(async () => 'token-a'),
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

  it('stops at deactivated for an inactive account', async () => {
    const actor = runningSession({ loadProfile: fromPromise(async () => inactiveProfile) });
    const snapshot = await settled(actor, 'deactivated');
    expect(guardSession(snapshot).user).toBeNull();
  });

  it('reports loading to the guard until the profile is known', () => {
    const actor = runningSession({ readToken: never<string | null>() });
    expect(guardSession(actor.getSnapshot())).toEqual({ status: 'loading', user: null });
    expect(interactionStatus(actor.getSnapshot())).toBe('startup');
  });
});
