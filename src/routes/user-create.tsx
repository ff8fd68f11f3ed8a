import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { flag, searchValidator } from '../lib/search-params';
import { prefetchForScreen } from '../lib/route-prefetch';
import { rolesQueryOptions } from '../api/roles';

/** `admin`: the admin-creation flag passed by the /admin-actions chooser (spec §2). */
const validateSearch = searchValidator<{ admin?: boolean }>({ admin: flag });

/** /utilisateurs/creer: the 4-step creation wizard (user-create.lazy.tsx); the roles it offers leave with its code. */
export const userCreateRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/utilisateurs/creer',
  validateSearch,
  loader: ({ context }) => prefetchForScreen(context, rolesQueryOptions(context.api)),
}).lazy(() => import('./user-create.lazy').then((m) => m.Route));
