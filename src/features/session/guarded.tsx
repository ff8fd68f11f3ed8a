import { useMemo, type ReactNode } from 'react';
import { Navigate } from '@tanstack/react-router';
import { guardDecision, type GuardRequirement } from '../../machines/guard/guard.machine';
import { guardSession } from '../../machines/session/session.selectors';
import { useSession } from '../../session';
import { Spinner } from '../../ui/spinner';
import { FirstScreen } from '../../ui/first-screen';

/** The screens that create users or request administrators: the API refuses them without USER_CREATE. */
export const USER_CREATE_REQUIRED: GuardRequirement = { permissions: ['USER_CREATE'] };
/** /admin, /admin/{id} and /workflows (spec §6). */
export const BACK_OFFICE_ONLY: GuardRequirement = { backOfficeOnly: true };
/** The journal (issue 21). */
export const USER_LIST_REQUIRED: GuardRequirement = { permissions: ['USER_LIST'] };

const sameSession = (a: ReturnType<typeof guardSession>, b: ReturnType<typeof guardSession>) => a.status === b.status && a.user === b.user;

/**
 * Every protected screen renders through the guard machine (spec §4 order), evaluated in
 * the same render as the session it judges: never a frame with a stale decision. The router
 * enforces the same decision before load once the session is known (route-guard.ts); this one
 * decides on a first load, when the session becomes known, and when it changes later. `firstScreen`: the screen is
 * drawn through FirstScreen (ui/first-screen.tsx), which lives in the shell's code with this guard.
 */
export function Guarded({ requirement, firstScreen = false, children }: { requirement?: GuardRequirement; firstScreen?: boolean; children: ReactNode }) {
  const session = useSession(guardSession, sameSession);
  const outcome = useMemo(() => guardDecision(requirement ?? {}, session), [requirement, session]);
  if (outcome.kind === 'spinner') return <Spinner />;
  if (outcome.kind === 'redirect') return <Navigate to={outcome.to} replace />;
  // A screen the page may open on draws, the first time, after its spinner in slices React may interrupt (issue 18).
  return firstScreen ? <FirstScreen fallback={<Spinner />}>{children}</FirstScreen> : <>{children}</>;
}
