import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { flag, searchValidator } from '../lib/search-params';

/** `admin`: the admin-creation flag passed by the /admin-actions chooser (spec §2). */
const validateSearch = searchValidator<{ admin?: boolean }>({ admin: flag });

/** /utilisateurs/creer: the 4-step creation wizard; the screen's code loads with the route (user-create.lazy.tsx). */
export const userCreateRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/utilisateurs/creer',
  validateSearch,
}).lazy(() => import('./user-create.lazy').then((m) => m.Route));
