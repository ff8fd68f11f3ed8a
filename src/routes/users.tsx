import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { shellRoute } from './shell';
import { listSearchFields } from './list-search';

/** SIREN, SIRET, role, search, sort and page live in the URL: a link or a reload keeps them, back works. */
const searchSchema = z.object({
  siren: z.string().uuid().optional().catch(undefined),
  siret: z.string().uuid().optional().catch(undefined),
  role: z.string().regex(/^[A-Z_]{2,50}$/).optional().catch(undefined),
  sort: z.enum(['name', 'email', 'lastLogin']).default('name').catch('name'),
  ...listSearchFields('asc'),
});
export type UsersSearch = z.infer<typeof searchSchema>;

/** /utilisateurs: the screen's code loads with the route (users.lazy.tsx). */
export const usersRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/utilisateurs',
  validateSearch: searchSchema,
}).lazy(() => import('./users.lazy').then((m) => m.Route));
