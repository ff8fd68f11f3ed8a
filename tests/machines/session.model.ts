// The session machine's model: the test replays its paths, `npm run charts` counts them and measures coverage.
import { fromPromise, type SnapshotFrom } from 'xstate';
import { sessionMachine, type ProfileLoadFailure, type SessionProfile, type TokenReading } from '../../src/machines/session/session.machine';
import { guardSession, interactionStatus } from '../../src/machines/session/session.selectors';
import { tokenSubject } from '../../src/domain/token';
import { doneEvent, errorEvent, type MachineModel, type ModelEvent } from '../model/harness';

export const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

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
// A fixed expiry keeps the generated paths (and the charts' numbers) the same from one run to the next.
const farFuture = 4_102_444_800;
export const tokenOfClaire = jwt({ sub: 'subject-claire', exp: farFuture });
export const tokenOfAnother = jwt({ sub: 'subject-another', exp: farFuture });
const expiredToken = jwt({ sub: 'subject-claire', exp: 1 });
export const reading = (token: string | null, expired = false): TokenReading => ({ token, expired });

export const activeProfile: SessionProfile = {
  id: 'u-1',
  authId: 'subject-claire',
  firstName: 'Claire',
  lastName: 'Martin',
  email: 'backoffice@portail.test',
  isActive: true,
  userType: 'BACKOFFICE',
  permissions: [{ code: 'USER_LIST' }],
};
export const inactiveProfile: SessionProfile = { ...activeProfile, id: 'u-2', authId: 'subject-another', email: 'inactif@portail.test', isActive: false, userType: 'ORGANIZATION' };
export const failure = (kind: ProfileLoadFailure['kind'], status: number): ProfileLoadFailure => ({ kind, status });

const events: ModelEvent<typeof modelMachine>[] = [
  { type: 'session.signIn' },
  { type: 'session.completeLogin' },
  { type: 'session.signOut' },
  { type: 'session.storageChanged' },
  { type: 'session.reloadProfile' },
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
  // Reloading the profile keeps the person shown (no spinner) until the new one arrives.
  if (lastEvent?.type === 'session.reloadProfile' && !(s.matches('loadingProfile') && shown)) fail('reloading the profile lost the person shown');
  const busy = ['startup', 'handlingRedirect', 'startingSignIn', 'loggingIn', 'completingLogin', 'acquiringToken', 'renewing', 'signingOut'];
  if ((interactionStatus(s) === 'none') === busy.some((state) => s.matches(state as never))) fail('interaction status disagrees with the state');
}

export const model: MachineModel<typeof modelMachine> = {
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
};
