import type { QueryClient } from '@tanstack/react-query';
import type { SnapshotFrom } from 'xstate';
import type { ApiClient } from './api/client';
import { rolesQueryOptions } from './api/roles';
import type { SessionActor } from './session';
import type { SessionMachine } from './machines/session/session.machine';
import { isSignedIn } from './machines/session/session.selectors';

/** Spec §4 start-up: 1 s after start, warm the cache the screens share (the roles); a failure is not critical. */
export const WARM_UP_DELAY_MS = 1000;

export function warmUpCaches(session: Pick<SessionActor, 'getSnapshot' | 'subscribe'>, queryClient: QueryClient, api: ApiClient, delayMs = WARM_UP_DELAY_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Once someone is signed in (the API needs a token); prefetchQuery never rejects: a failure stays silent.
  const start = (snapshot: SnapshotFrom<SessionMachine>) => {
    if (timer === undefined && isSignedIn(snapshot)) timer = setTimeout(() => void queryClient.prefetchQuery(rolesQueryOptions(api)), delayMs);
    return timer !== undefined;
  };
  const subscription = start(session.getSnapshot()) ? null : session.subscribe((snapshot) => {
    if (start(snapshot)) subscription?.unsubscribe();
  });
  return () => {
    subscription?.unsubscribe();
    if (timer !== undefined) clearTimeout(timer);
  };
}
