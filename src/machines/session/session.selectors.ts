import type { SnapshotFrom } from 'xstate';
import type { SessionMachine, SessionProfile } from './session.machine';
import { SESSION_MESSAGES } from './session.machine';

type SessionSnapshot = SnapshotFrom<SessionMachine>;

/** The sign-in interaction status of spec §4: none once the redirect check has finished. */
export type InteractionStatus = 'startup' | 'handleRedirect' | 'login' | 'ssoSilent' | 'acquireToken' | 'logout' | 'none';

const STATUS_BY_STATE: Partial<Record<string, InteractionStatus>> = {
  startup: 'startup',
  handlingRedirect: 'handleRedirect',
  startingSignIn: 'login',
  loggingIn: 'login',
  completingLogin: 'acquireToken',
  acquiringToken: 'acquireToken',
  renewing: 'ssoSilent',
  signingOut: 'logout',
};

export function interactionStatus(snapshot: SessionSnapshot): InteractionStatus {
  return STATUS_BY_STATE[String(snapshot.value)] ?? 'none';
}

const WITHOUT_USER = new Set(['signedOut', 'startingSignIn', 'loggingIn', 'deactivated', 'signingOut']);

/** What the route guard needs: loading until the session knows, then the user or nobody. */
export function guardSession(snapshot: SessionSnapshot): { status: 'loading' | 'ready'; user: SessionProfile | null } {
  if (WITHOUT_USER.has(String(snapshot.value))) return { status: 'ready', user: null };
  if (snapshot.context.profile) return { status: 'ready', user: snapshot.context.profile };
  return { status: 'loading', user: null };
}

/** Someone is signed in and known (also while the token is being checked or renewed). */
export function isSignedIn(snapshot: SessionSnapshot): boolean {
  return guardSession(snapshot).user !== null;
}

/** The session has settled with nobody signed in: sign-in, post-login and sign-out can act. */
export function isSignedOut(snapshot: SessionSnapshot): boolean {
  return snapshot.matches('signedOut');
}

/** The post-login steps failed: back to sign-in (which will ask for the password). */
export function hasLoginFailed(snapshot: SessionSnapshot): boolean {
  return snapshot.matches('signedOut') && snapshot.context.loginFailed;
}

export function isDeactivated(snapshot: SessionSnapshot): boolean {
  return snapshot.matches('deactivated');
}

export function canSignOut(snapshot: SessionSnapshot): boolean {
  return snapshot.can({ type: 'session.signOut' });
}

/** The §8 message shown while the profile could not be reloaded, with the cached-data note. */
export function sessionNotice(snapshot: SessionSnapshot): string | null {
  const { error, usingCache } = snapshot.context;
  if (!error) return null;
  return usingCache ? `${error}${SESSION_MESSAGES.usingCachedData}` : error;
}
