import { assign, setup } from 'xstate';
import type { SessionUser } from '../../../rules/permissions';
import { tokenSubject } from '../../domain/token';
import { requiredActor } from '../shared/required-actor';

/** The signed-in person's profile (GET /users/me), as far as the session needs it. */
export type SessionProfile = SessionUser & { id: string; authId: string; firstName: string; lastName: string };

/** Why loading the profile failed: the transport failures of spec §8 allow the cached profile. */
export interface ProfileLoadFailure {
  kind: 'backendUnavailable' | 'network' | 'rejected';
  status: number;
}

/** What the token cookie holds: a token, and whether its exp has passed. */
export interface TokenReading {
  token: string | null;
  expired: boolean;
}

export const SESSION_MESSAGES = {
  backendUnavailable: 'The server is restarting. Please refresh the page in a moment.',
  network: 'Unable to connect to the server. Please check your connection.',
  usingCachedData: ' (Using cached data)',
} as const;

/** Spec §9 delays. */
export const SESSION_DELAYS = { poll: 5000, signInStart: 1000, postLogin: 1000 } as const;

export interface SessionContext {
  token: string | null;
  profile: SessionProfile | null;
  cachedProfile: SessionProfile | null;
  usingCache: boolean;
  error: string | null;
  /** The post-login steps are running: any failure there leads back to sign-in (§2), never to a cached profile. */
  afterLogin: boolean;
  /** The last post-login failed: the next sign-in asks for the password instead of reusing the provider's session. */
  loginFailed: boolean;
}

export type SessionEvent =
  | { type: 'session.signIn' }
  | { type: 'session.completeLogin' }
  | { type: 'session.signOut' }
  | { type: 'session.storageChanged' }
  /** Load the profile again with the same token (the developer API test page's refresh-user button). */
  | { type: 'session.reloadProfile' };

const asFailure = (error: unknown): ProfileLoadFailure =>
  error && typeof error === 'object' && 'kind' in error ? (error as ProfileLoadFailure) : { kind: 'rejected', status: 0 };

/** Takes a new token; a profile (fresh or cached) of another subject is dropped at once. */
const adoptToken = (context: SessionContext, token: string | null): Partial<SessionContext> => {
  const same = context.profile !== null && context.profile.authId === tokenSubject(token);
  return { token, profile: same ? context.profile : null, usingCache: same && context.usingCache };
};

const reading = ({ event }: { event: { output: TokenReading } }) => event.output;
const failureOf = ({ event }: { event: { error: unknown } }) => event.error;

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as { cachedProfile: SessionProfile | null },
  },
  actors: {
    initializeAuth: requiredActor<void>('initializeAuth'),
    handleRedirect: requiredActor<void>('handleRedirect'),
    readToken: requiredActor<TokenReading>('readToken'),
    /** The redirect to the provider; `forceLogin` asks for the password again. */
    login: requiredActor<void, { forceLogin: boolean }>('login'),
    /** Silent acquisition; writes the cookie; fails without a subject. */
    acquireToken: requiredActor<string>('acquireToken'),
    /** GET /users/me; fails with a ProfileLoadFailure. */
    loadProfile: requiredActor<SessionProfile, { token: string }>('loadProfile'),
    signOut: requiredActor<void>('signOut'),
  },
  // Side effects supplied by the app; by default there is nothing to do.
  actions: {
    cacheProfile: (_, _profile: SessionProfile) => {},
    forgetToken: () => {},
    notifyDeactivated: () => {},
  },
  guards: {
    hasValidToken: (_, r: TokenReading) => r.token !== null && !r.expired,
    hasExpiredToken: (_, r: TokenReading) => r.token !== null && r.expired,
    isSameToken: ({ context }, r: TokenReading) => r.token !== null && !r.expired && r.token === context.token,
    isInactive: (_, profile: SessionProfile) => !profile.isActive,
    isAfterLogin: ({ context }) => context.afterLogin,
    /** A transport failure, and a cached profile of the very person the token names. */
    canUseCachedProfile: ({ context }, error: unknown) =>
      asFailure(error).kind !== 'rejected' && context.cachedProfile !== null && context.cachedProfile.authId === tokenSubject(context.token),
    isTransportFailure: (_, error: unknown) => asFailure(error).kind !== 'rejected',
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    token: null,
    profile: null,
    cachedProfile: input.cachedProfile,
    usingCache: false,
    error: null,
    afterLogin: false,
    loginFailed: false,
  }),
  initial: 'startup',
  states: {
    startup: {
      invoke: { id: 'initializeAuth', src: 'initializeAuth', onDone: 'handlingRedirect', onError: 'checkingToken' },
    },
    handlingRedirect: {
      invoke: { id: 'handleRedirect', src: 'handleRedirect', onDone: 'checkingToken', onError: 'checkingToken' },
    },
    checkingToken: {
      invoke: {
        id: 'readToken',
        src: 'readToken',
        onDone: [
          { guard: { type: 'hasValidToken', params: reading }, target: 'loadingProfile', actions: assign(({ context, event }) => adoptToken(context, event.output.token)) },
          { guard: { type: 'hasExpiredToken', params: reading }, target: 'renewing' },
          { target: 'signedOut' },
        ],
        onError: 'signedOut',
      },
    },
    signedOut: {
      entry: assign({ token: null, profile: null, usingCache: false, afterLogin: false }),
      on: {
        'session.signIn': 'startingSignIn',
        'session.completeLogin': 'completingLogin',
        'session.signOut': 'signingOut',
        'session.storageChanged': 'checkingToken',
      },
    },
    startingSignIn: {
      after: { [SESSION_DELAYS.signInStart]: 'loggingIn' },
      on: { 'session.signOut': 'signingOut' },
    },
    loggingIn: {
      invoke: { id: 'login', src: 'login', input: ({ context }) => ({ forceLogin: context.loginFailed }), onError: 'signedOut' },
    },
    completingLogin: {
      entry: assign({ afterLogin: true }),
      after: { [SESSION_DELAYS.postLogin]: 'acquiringToken' },
    },
    acquiringToken: {
      invoke: {
        id: 'acquireToken',
        src: 'acquireToken',
        onDone: { target: 'loadingProfile', actions: assign(({ context, event }) => adoptToken(context, event.output)) },
        onError: { target: 'signedOut', actions: assign({ loginFailed: true }) },
      },
    },
    loadingProfile: {
      invoke: {
        id: 'loadProfile',
        src: 'loadProfile',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: [
          { guard: { type: 'isInactive', params: ({ event }) => event.output }, target: 'deactivated', actions: assign({ profile: ({ event }) => event.output }) },
          {
            target: 'signedIn',
            actions: [
              assign({ profile: ({ event }) => event.output, cachedProfile: ({ event }) => event.output, usingCache: false, error: null }),
              { type: 'cacheProfile', params: ({ event }) => event.output },
            ],
          },
        ],
        onError: [
          { guard: 'isAfterLogin', target: 'signedOut', actions: ['forgetToken', assign({ loginFailed: true })] },
          {
            guard: { type: 'canUseCachedProfile', params: failureOf },
            target: 'signedIn',
            actions: assign({
              error: ({ event }) => SESSION_MESSAGES[asFailure(event.error).kind === 'network' ? 'network' : 'backendUnavailable'],
              profile: ({ context }) => context.cachedProfile,
              usingCache: true,
            }),
          },
          {
            guard: { type: 'isTransportFailure', params: failureOf },
            target: 'signedOut',
            actions: assign({ error: ({ event }) => SESSION_MESSAGES[asFailure(event.error).kind === 'network' ? 'network' : 'backendUnavailable'] }),
          },
          { target: 'signedOut', actions: 'forgetToken' },
        ],
      },
    },
    signedIn: {
      entry: assign({ afterLogin: false, loginFailed: false }),
      after: { [SESSION_DELAYS.poll]: 'polling' },
      on: {
        'session.storageChanged': 'polling',
        'session.reloadProfile': 'loadingProfile',
        'session.signOut': 'signingOut',
      },
    },
    polling: {
      invoke: {
        id: 'readToken',
        src: 'readToken',
        onDone: [
          { guard: { type: 'isSameToken', params: reading }, target: 'signedIn' },
          { guard: { type: 'hasValidToken', params: reading }, target: 'loadingProfile', actions: assign(({ context, event }) => adoptToken(context, event.output.token)) },
          // The token ran out: renew it silently. A cookie gone (signed out elsewhere) ends the session here too.
          { guard: { type: 'hasExpiredToken', params: reading }, target: 'renewing' },
          { target: 'signedOut' },
        ],
        onError: 'signedOut',
      },
      on: { 'session.signOut': 'signingOut' },
    },
    renewing: {
      invoke: {
        id: 'acquireToken',
        src: 'acquireToken',
        onDone: { target: 'loadingProfile', actions: assign(({ context, event }) => adoptToken(context, event.output)) },
        onError: 'signedOut',
      },
    },
    deactivated: {
      // §2: alert 'Votre compte est désactivé.'; the app then goes to /authentication/sign-out, whatever the page.
      entry: 'notifyDeactivated',
      on: { 'session.signOut': 'signingOut' },
    },
    signingOut: {
      entry: assign({ cachedProfile: null, profile: null, usingCache: false, error: null }),
      invoke: { id: 'signOut', src: 'signOut', onDone: 'signedOut', onError: 'signedOut' },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
