// Route guard of spec §4: decides spinner, redirect or render from the session and the route's requirement.
// Pure: the route performs the redirect the outcome names.
import { assign, getInitialSnapshot, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { hasAnyRole, hasPermission, isBackOffice } from '../../../rules/permissions';
import type { PermissionMode, SessionUser } from '../../../rules/permissions';

export const SIGN_IN_PATH = '/authentication/sign-in';
export const DEFAULT_FALLBACK = '/dashboard';

export interface GuardRequirement {
  backOfficeOnly?: boolean;
  permissions?: string[];
  permissionMode?: PermissionMode;
  roles?: string[];
  fallback?: string;
}

export interface GuardSession {
  status: 'loading' | 'ready';
  user: SessionUser | null;
}

export interface GuardInput {
  requirement: GuardRequirement;
  session: GuardSession;
}

export type GuardContext = GuardInput;

export type GuardEvent = { type: 'session.changed'; session: GuardSession };

export type GuardOutcome = { kind: 'spinner' } | { kind: 'redirect'; to: string } | { kind: 'render' };

// The guards below run in this order, so each may assume the ones before it were false;
// the null checks only satisfy the types.
export const guardMachine = setup({
  types: {} as { context: GuardContext; input: GuardInput; events: GuardEvent },
  guards: {
    isLoading: ({ context }) => context.session.status === 'loading',
    hasNoUser: ({ context }) => context.session.user === null,
    isRefusedBackOfficeOnly: ({ context: { requirement, session } }) =>
      requirement.backOfficeOnly === true && !(session.user !== null && isBackOffice(session.user)),
    isMissingPermission: ({ context: { requirement, session } }) => {
      const wanted = requirement.permissions ?? [];
      if (wanted.length === 0) return false;
      return session.user === null || !hasPermission(session.user, wanted, requirement.permissionMode ?? 'any');
    },
    isMissingRole: ({ context: { requirement, session } }) => {
      const wanted = requirement.roles ?? [];
      if (wanted.length === 0) return false;
      return session.user === null || !hasAnyRole(session.user, wanted);
    },
  },
  actions: {
    storeSession: assign({ session: ({ event }) => event.session }),
  },
}).createMachine({
  id: 'guard',
  context: ({ input }) => ({ requirement: input.requirement, session: input.session }),
  initial: 'evaluating',
  // Targeting the child from the root exits whatever state is active and runs `evaluating` again.
  on: {
    'session.changed': { target: '.evaluating', actions: 'storeSession' },
  },
  states: {
    evaluating: {
      always: [
        { guard: 'isLoading', target: 'loading' },
        { guard: 'hasNoUser', target: 'redirectingToSignIn' },
        { guard: 'isRefusedBackOfficeOnly', target: 'redirectingToFallback' },
        { guard: 'isMissingPermission', target: 'redirectingToFallback' },
        { guard: 'isMissingRole', target: 'redirectingToFallback' },
        { target: 'rendering' },
      ],
    },
    loading: {},
    redirectingToSignIn: {},
    redirectingToFallback: {},
    rendering: {},
  },
});

export type GuardSnapshot = SnapshotFrom<typeof guardMachine>;

export function guardOutcome(snapshot: GuardSnapshot): GuardOutcome {
  if (snapshot.matches('redirectingToSignIn')) return { kind: 'redirect', to: SIGN_IN_PATH };
  if (snapshot.matches('redirectingToFallback')) {
    return { kind: 'redirect', to: snapshot.context.requirement.fallback ?? DEFAULT_FALLBACK };
  }
  if (snapshot.matches('rendering')) return { kind: 'render' };
  return { kind: 'spinner' };
}

/** The machine's decision for a requirement and a session, read from its first snapshot: the rule the render-time guard and the router's `beforeLoad` share. */
export function guardDecision(requirement: GuardRequirement, session: GuardSession): GuardOutcome {
  return guardOutcome(getInitialSnapshot(guardMachine, { requirement, session }));
}
