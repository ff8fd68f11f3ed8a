import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyActorLogic, type SnapshotFrom } from 'xstate';
import { sessionMachine, SESSION_MESSAGES, type SessionProfile, type ProfileLoadFailure, type TokenReading } from '../../src/machines/session/session.machine';
import { guardSession, interactionStatus, sessionNotice } from '../../src/machines/session/session.selectors';
import { tokenSubject } from '../../src/domain/token';
import { describeMachineModel, doneEvent, errorEvent, type ModelEvent } from '../model/harness';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

/** The machine with actors that never settle: the model sends their done and error events itself. */
const modelMachine = sessionMachine.provide({
  actors: {
    initializeAuth: never<void>(),
    handleRedirect: never<void>(),
    readToken: never<TokenReading>(),
    login: never<void, { forceLogin: boolean }>(),
    acquireToken: never<string>(),
    loadProfile: never<SessionProfile, { token: string }>(),
    signOut: never<void>(),
  },
});

/** An unsigned JWT-shaped token: the browser only reads its claims. */
const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
const hourFromNow = Math.floor(Date.now() / 1000) + 3600;
const tokenOfClaire = jwt({ sub: 'subject-claire', exp: hourFromNow });
const tokenOfAnother = jwt({ sub: 'subject-another', exp: hourFromNow });
const expiredToken = jwt({ sub: 'subject-claire', exp: 1 });
const reading = (token: string | null, expired = false): TokenReading => ({ token, expired });

const activeProfile: SessionProfile = {
  id: 'u-1',
  authId: 'subject-claire',
  firstName: 'Claire',
  lastName: 'Martin',
  email: 'backoffice@portail.test',
  isActive: true,
  userType: 'BACKOFFICE',
  permissions: [{ code: 'USER_LIST' }],
};
const inactiveProfile: SessionProfile = { ...activeProfile, id: 'u-2', authId: 'subject-another', email: 'inactif@portail.test', isActive: false, userType: 'ORGANIZATION' };
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
  doneEvent('readToken', reading(tokenOfClaire)),
  doneEvent('readToken', reading(tokenOfAnother)),
  doneEvent('readToken', reading(expiredToken, true)),
  doneEvent('readToken', reading(null)),
  errorEvent('readToken', new Error('cookie')),
  errorEvent('login', new Error('popup blocked')),
  doneEvent('acquireToken', tokenOfClaire),
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
    JSON.stringify([
      s.value,
      tokenSubject(s.context.token),
      s.context.profile?.id ?? null,
      s.context.cachedProfile?.id ?? null,
      s.context.usingCache,
      s.context.error,
      s.context.afterLogin,
      s.context.loginFailed,
    ]),
  invariant: sessionInvariant,
  maxSimplePaths: 60,
  describeEvent: (event) => {
    if (!('output' in event) || event.output === undefined) return event.type;
    const output = event.output as { token?: string | null; expired?: boolean; email?: string } | string;
    if (typeof output === 'string') return `${event.type}(${tokenSubject(output)})`;
    if ('token' in output) return `${event.type}(${output.token ? tokenSubject(output.token) : 'none'}${output.expired ? ', expired' : ''})`;
    return `${event.type}(${output.email})`;
  },
});

/** What the spec promises in every state, whatever the path. */
function sessionInvariant(s: SnapshotFrom<typeof modelMachine>, lastEvent: { type: string } | null): void {
  const { context } = s;
  const shown = guardSession(s).user;
  const fail = (why: string) => {
    throw new Error(`${why} (state ${JSON.stringify(s.value)})`);
  };
  // Never someone else's profile: a cached one is shown only for the token's own subject.
  if (shown && context.usingCache && shown.authId !== tokenSubject(context.token)) fail('a cached profile of another person is shown');
  if (context.usingCache && !context.error) fail('cached data is shown without the §8 message');
  if (s.matches('signedIn') && !context.profile) fail('signed in without a profile');
  if (s.matches('signedOut') && (context.token || context.profile)) fail('signed out but a token or profile remains');
  if (s.matches('deactivated') && (context.profile?.isActive !== false || shown)) fail('deactivated without an inactive profile, or with a user for the guard');
  // §2: a failure during the post-login steps leads back to sign-in, never to a cached profile.
  if (lastEvent?.type === 'xstate.error.actor.loadProfile' && context.loginFailed && !s.matches('signedOut')) fail('post-login failure did not end signed out');
  if (lastEvent?.type === 'session.signOut' && !s.matches('signingOut')) fail('sign-out was not started');
  const busy = ['startup', 'handlingRedirect', 'startingSignIn', 'loggingIn', 'completingLogin', 'acquiringToken', 'renewing', 'signingOut'];
  if ((interactionStatus(s) === 'none') === busy.some((state) => s.matches(state as never))) fail('interaction status disagrees with the state');
}

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

  it('stops at deactivated for an inactive account', async () => {
    const actor = runningSession({ loadProfile: fromPromise(async () => inactiveProfile) });
    const snapshot = await settled(actor, 'deactivated');
    expect(guardSession(snapshot).user).toBeNull();
  });

  it('reports loading to the guard until the profile is known', () => {
    const actor = runningSession({ readToken: never<TokenReading>() });
    expect(guardSession(actor.getSnapshot())).toEqual({ status: 'loading', user: null });
    expect(interactionStatus(actor.getSnapshot())).toBe('startup');
  });
});
