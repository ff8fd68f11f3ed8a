import { assign, setup } from 'xstate';
import { requiredActor } from '../shared/required-actor';
import type { SessionUser } from '../../domain/permissions';

/** The signed-in person's profile (GET /users/me), as far as the session needs it. */
export type SessionProfile = SessionUser & { id: string; firstName: string; lastName: string };

/** Why loading the profile failed: the transport failures of spec §8 allow the cached profile. */
export interface ProfileLoadFailure {
  kind: 'backendUnavailable' | 'network' | 'rejected';
  status: number;
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
}

export type SessionEvent =
  | { type: 'session.signIn' }
  | { type: 'session.completeLogin' }
  | { type: 'session.signOut' }
  | { type: 'session.storageChanged' };

const asFailure = (error: unknown): ProfileLoadFailure =>
  error && typeof error === 'object' && 'kind' in error ? (error as ProfileLoadFailure) : { kind: 'rejected', status: 0 };

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as { cachedProfile: SessionProfile | null },
  },
  actors: {
    initializeAuth: requiredActor<void>('initializeAuth'),
    handleRedirect: requiredActor<void>('handleRedirect'),
    /** The token of the cookie when it is present and unexpired, else null. */
    readToken: requiredActor<string | null>('readToken'),
    login: requiredActor<void>('login'),
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
    hasToken: (_, token: string | null) => token !== null,
    isSameToken: ({ context }, token: string | null) => token !== null && token === context.token,
    isInactive: (_, profile: SessionProfile) => !profile.isActive,
    isTransportFailure: (_, error: unknown) => asFailure(error).kind !== 'rejected',
    hasCachedProfile: ({ context }) => context.cachedProfile !== null,
    hasNoProfile: ({ context }) => context.profile === null,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ token: null, profile: null, cachedProfile: input.cachedProfile, usingCache: false, error: null }),
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
          { guard: { type: 'hasToken', params: ({ event }) => event.output }, target: 'loadingProfile', actions: assign({ token: ({ event }) => event.output }) },
          { target: 'signedOut' },
        ],
        onError: 'signedOut',
      },
    },
    signedOut: {
      entry: assign({ token: null, profile: null, usingCache: false }),
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
      invoke: { id: 'login', src: 'login', onError: 'signedOut' },
    },
    completingLogin: {
      after: { [SESSION_DELAYS.postLogin]: 'acquiringToken' },
    },
    acquiringToken: {
      invoke: {
        id: 'acquireToken',
        src: 'acquireToken',
        onDone: { target: 'loadingProfile', actions: assign({ token: ({ event }) => event.output }) },
        onError: 'signedOut',
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
          {
            guard: { type: 'isTransportFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            target: 'signedIn',
            actions: assign({
              error: ({ event }) => SESSION_MESSAGES[asFailure(event.error).kind === 'network' ? 'network' : 'backendUnavailable'],
              profile: ({ context }) => context.cachedProfile,
              usingCache: ({ context }) => context.cachedProfile !== null,
            }),
          },
          { target: 'signedOut', actions: 'forgetToken' },
        ],
      },
    },
    signedIn: {
      always: { guard: 'hasNoProfile', target: 'signedOut' },
      after: { [SESSION_DELAYS.poll]: 'polling' },
      on: {
        'session.storageChanged': 'polling',
        'session.signOut': 'signingOut',
      },
    },
    polling: {
      invoke: {
        id: 'readToken',
        src: 'readToken',
        onDone: [
          { guard: { type: 'isSameToken', params: ({ event }) => event.output }, target: 'signedIn' },
          { guard: { type: 'hasToken', params: ({ event }) => event.output }, target: 'loadingProfile', actions: assign({ token: ({ event }) => event.output }) },
          { target: 'renewing' },
        ],
        onError: 'renewing',
      },
      on: { 'session.signOut': 'signingOut' },
    },
    renewing: {
      invoke: {
        id: 'acquireToken',
        src: 'acquireToken',
        onDone: { target: 'loadingProfile', actions: assign({ token: ({ event }) => event.output }) },
        onError: 'signedOut',
      },
    },
    deactivated: {
      entry: 'notifyDeactivated',
      on: { 'session.signOut': 'signingOut' },
    },
    signingOut: {
      entry: assign({ cachedProfile: null, error: null }),
      invoke: { id: 'signOut', src: 'signOut', onDone: 'signedOut', onError: 'signedOut' },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
