import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { rememberEmailConfirmation } from '../auth/return-after-sign-in';

export interface EmailConfirmationSearch {
  token?: string;
}

/**
 * /compte/confirmer-email?token=…: the person, signed in with their current address, confirms their new one
 * (issue 19). Reached signed out, the token is remembered so that the sign-in comes back here. The screen's
 * code loads with the route (email-confirmation.lazy.tsx).
 */
export const emailConfirmationRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/compte/confirmer-email',
  validateSearch: (search: Record<string, unknown>): EmailConfirmationSearch => (typeof search.token === 'string' ? { token: search.token } : {}),
  beforeLoad: ({ search }) => rememberEmailConfirmation(search.token),
}).lazy(() => import('./email-confirmation.lazy').then((m) => m.Route));
