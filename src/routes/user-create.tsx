import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { shellRoute } from './shell';

/** `admin`: the admin-creation flag passed by the /admin-actions chooser (spec §2). */
const searchSchema = z.object({
  admin: z.boolean().optional().catch(undefined),
});

/** /utilisateurs/creer: the 4-step creation wizard; the screen's code loads with the route (user-create.lazy.tsx). */
export const userCreateRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/utilisateurs/creer',
  validateSearch: searchSchema,
}).lazy(() => import('./user-create.lazy').then((m) => m.Route));
