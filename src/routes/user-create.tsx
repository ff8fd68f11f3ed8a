import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { flag, searchValidator } from '../lib/search-params';
import { USER_CREATE_REQUIRED } from '../features/session/guarded';
import { guardBeforeLoad, prefetchWhenAllowed } from '../features/session/route-guard';
import { rolesQueryOptions } from '../api/roles';

/** `admin`: the admin-creation flag passed by the /admin-actions chooser (spec §2). */
const validateSearch = searchValidator<{ admin?: boolean }>({ admin: flag });

/** /utilisateurs/creer: the 4-step creation wizard (user-create.lazy.tsx); the roles it offers leave with its code. */
export const userCreateRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/utilisateurs/creer',
  validateSearch,
  beforeLoad: guardBeforeLoad(USER_CREATE_REQUIRED),
  loader: ({ context }) => prefetchWhenAllowed(context, USER_CREATE_REQUIRED, rolesQueryOptions(context.api)),
}).lazy(() => import('./user-create.lazy').then((m) => m.Route));
