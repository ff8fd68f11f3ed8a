// Guards before load (issue 18): once the signed-in person is known, the router enforces the guard machine's decision in
// `beforeLoad`, before the route's chunk and loader; while it is not known yet (a first load) nothing waits: the route
// proceeds and the render-time guard (guarded.tsx) decides as soon as it is.
import { redirect } from '@tanstack/react-router';
import type { FetchQueryOptions, QueryKey } from '@tanstack/react-query';
import { guardDecision, type GuardOutcome, type GuardRequirement } from '../../machines/guard/guard.machine';
import { guardSession } from '../../machines/session/session.selectors';
import { prefetchForScreen } from '../../lib/route-prefetch';
import type { RouterContext } from '../../router-context';

type Context = Pick<RouterContext, 'session'>;

const decisionNow = (context: Context, requirement: GuardRequirement): GuardOutcome => guardDecision(requirement, guardSession(context.session.getSnapshot()));

/**
 * A route's `beforeLoad`: someone signed in and known whom the rule refuses is redirected where the render-time
 * guard would send them. Anyone else goes on: while the session is not known yet, or with nobody signed in, the
 * render-time guard decides (a signed-out visitor's route may have its own `beforeLoad` to run first: the e-mail
 * confirmation remembers its token for after the sign-in).
 */
export function guardBeforeLoad(requirement: GuardRequirement) {
  return ({ context }: { context: Context }): void => {
    const session = guardSession(context.session.getSnapshot());
    if (!session.user) return;
    const outcome = guardDecision(requirement, session);
    // A redirect from `beforeLoad` replaces the refused entry in the history, as the render-time guard does.
    if (outcome.kind === 'redirect') throw redirect({ to: outcome.to });
  };
}

/**
 * A guarded route's loader: starts the screen's query only for someone the rule lets in. With the session known
 * that is decided at once (`beforeLoad` has already sent the others away); on a first load the query leaves when
 * the session becomes known, and never for someone refused. The navigation itself never waits.
 */
export function prefetchWhenAllowed<T, K extends QueryKey>(
  context: Context & Parameters<typeof prefetchForScreen>[0],
  requirement: GuardRequirement,
  options: FetchQueryOptions<T, Error, T, K>,
): void {
  const settle = (outcome: GuardOutcome) => {
    if (outcome.kind === 'render') prefetchForScreen(context, options);
    return outcome.kind !== 'spinner';
  };
  if (settle(decisionNow(context, requirement))) return;
  const subscription = context.session.subscribe(() => {
    if (settle(decisionNow(context, requirement))) subscription.unsubscribe();
  });
}
