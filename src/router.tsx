import { createRouter } from '@tanstack/react-router';
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

export const routeTree = rootRoute.addChildren([
  landingRoute,
  signInRoute,
  redirectLoginRoute,
  signOutRoute,
  shellRoute.addChildren([dashboardRoute, adminRoute, adminDetailRoute, usersRoute, userProfileRoute, userEditRoute, userCreateRoute, adminActionsRoute, assignExistingRoute, myRequestsRoute, workflowsRoute, testV2ApiRoute, emailConfirmationRoute, journalRoute]),
]);

export function createAppRouter(context: RouterContext) {
  return createRouter({ routeTree, context, defaultPreload: 'intent', scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
  interface HistoryState {
    /** A message a screen passes to the next one (e.g. a decision's outcome to the invitations list). */
    toast?: { id?: string; title: string; description?: string; variant: 'success' | 'error' };
  }
}
