import { createRouter, type RouterHistory } from '@tanstack/react-router';
import type { RouterContext } from './router-context';
import { rootRoute } from './routes/root';
import { landingRoute } from './routes/landing';
import { signInRoute } from './routes/sign-in';
import { redirectLoginRoute } from './routes/redirect-login';
import { signOutRoute } from './routes/sign-out';
import { shellRoute } from './routes/shell';
import { dashboardRoute } from './routes/dashboard';
import { adminRoute } from './routes/admin';
import { adminDetailRoute } from './routes/admin-detail';
import { usersRoute } from './routes/users';
import { userProfileRoute } from './routes/user-profile';
import { userEditRoute } from './routes/user-edit';
import { userCreateRoute } from './routes/user-create';
import { adminActionsRoute } from './routes/admin-actions';
import { assignExistingRoute } from './routes/assign-existing';
import { myRequestsRoute } from './routes/my-requests';
import { workflowsRoute } from './routes/workflows';
import { testV2ApiRoute } from './routes/test-v2-api';
import { emailConfirmationRoute } from './routes/email-confirmation';
import { journalRoute } from './routes/journal';
import { accessibilityRoute } from './routes/accessibility';
import { retentionRoute } from './routes/retention';

export const routeTree = rootRoute.addChildren([
  landingRoute,
  signInRoute,
  redirectLoginRoute,
  signOutRoute,
  accessibilityRoute,
  shellRoute.addChildren([dashboardRoute, adminRoute, adminDetailRoute, usersRoute, userProfileRoute, userEditRoute, userCreateRoute, adminActionsRoute, assignExistingRoute, myRequestsRoute, workflowsRoute, testV2ApiRoute, emailConfirmationRoute, journalRoute, retentionRoute]),
]);

/** The app's router; `history` is the browser's unless given (the route tests keep it in memory). */
export function createAppRouter(context: RouterContext, history?: RouterHistory) {
  return createRouter({ routeTree, context, history, defaultPreload: 'intent', scrollRestoration: true });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
  interface HistoryState {
    /** A message a screen passes to the next one (e.g. a decision's outcome to the invitations list). */
    toast?: { id?: string; title: string; description?: string; variant: 'success' | 'error' };
  }
}
