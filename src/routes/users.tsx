import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { shellRoute } from './shell';
import { PAGE_SIZES, type PageSize } from '../domain/pagination';

/** SIREN, SIRET, role, search, sort and page live in the URL: a link or a reload keeps them, back works. */
const searchSchema = z.object({
  siren: z.string().uuid().optional().catch(undefined),
  siret: z.string().uuid().optional().catch(undefined),
  role: z.string().regex(/^[A-Z_]{2,50}$/).optional().catch(undefined),
  search: z.string().max(200).default('').catch(''),
  sort: z.enum(['name', 'email', 'lastLogin']).default('name').catch('name'),
  order: z.enum(['asc', 'desc']).default('asc').catch('asc'),
  page: z.coerce.number().int().min(1).default(1).catch(1),
  pageSize: z.coerce
    .number()
    .refine((n): n is PageSize => (PAGE_SIZES as readonly number[]).includes(n))
    .default(10)
    .catch(10),
});
export type UsersSearch = z.infer<typeof searchSchema>;

/** /utilisateurs: the screen's code loads with the route (users.lazy.tsx). */
export const usersRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/utilisateurs',
  validateSearch: searchSchema,
}).lazy(() => import('./users.lazy').then((m) => m.Route));
