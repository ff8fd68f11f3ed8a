import { useMemo, type ReactNode } from 'react';
import { Navigate } from '@tanstack/react-router';
import { getInitialSnapshot } from 'xstate';
import { guardMachine, guardOutcome, type GuardRequirement } from '../../machines/guard/guard.machine';
import { guardSession } from '../../machines/session/session.selectors';
import { useSession } from '../../session';
import { Spinner } from '../../ui/spinner';

/** The screens that create users or request administrators: the API refuses them without USER_CREATE. */
export const USER_CREATE_REQUIRED: GuardRequirement = { permissions: ['USER_CREATE'] };

const sameSession = (a: ReturnType<typeof guardSession>, b: ReturnType<typeof guardSession>) => a.status === b.status && a.user === b.user;

/**
 * Every protected screen renders through the guard machine (spec §4 order), evaluated in
 * the same render as the session it judges: never a frame with a stale decision.
 */
export function Guarded({ requirement, children }: { requirement?: GuardRequirement; children: ReactNode }) {
  const session = useSession(guardSession, sameSession);
  const outcome = useMemo(() => guardOutcome(getInitialSnapshot(guardMachine, { requirement: requirement ?? {}, session })), [requirement, session]);
  if (outcome.kind === 'spinner') return <Spinner />;
  if (outcome.kind === 'redirect') return <Navigate to={outcome.to} replace />;
  return <>{children}</>;
}
