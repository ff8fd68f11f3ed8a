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
  const state = String(snapshot.value);
  if (WITHOUT_USER.has(state)) return { status: 'ready', user: null };
  if (snapshot.context.profile) return { status: 'ready', user: snapshot.context.profile };
  return { status: 'loading', user: null };
}

/** The §8 message shown while the profile could not be reloaded, with the cached-data note. */
export function sessionNotice(snapshot: SessionSnapshot): string | null {
  const { error, usingCache } = snapshot.context;
  if (!error) return null;
  return usingCache ? `${error}${SESSION_MESSAGES.usingCachedData}` : error;
}
