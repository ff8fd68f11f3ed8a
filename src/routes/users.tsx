import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { listSearchFields, type ListSearch } from '../lib/list-search';
import { matching, maybeOneOf, oneOf, searchValidator, uuid } from '../lib/search-params';
import { prefetchForScreen } from '../lib/route-prefetch';
import { usersQueryOptions } from '../api/users';
import { usersListQuery } from '../lib/list-queries';
import { ACCOUNT_STATES, type AccountState } from '../domain/account-state';

export interface UsersSearch extends ListSearch {
  siren?: string;
  siret?: string;
  role?: string;
  accountState?: AccountState;
  sort: 'name' | 'email' | 'lastLogin';
}

/** SIREN, SIRET, role, account state, search, sort and page live in the URL: a link or a reload keeps them, back works. */
const validateSearch = searchValidator<UsersSearch>({
  siren: uuid,
  siret: uuid,
  role: matching(/^[A-Z_]{2,50}$/),
  accountState: maybeOneOf(ACCOUNT_STATES),
  sort: oneOf(['name', 'email', 'lastLogin'], 'name'),
  ...listSearchFields('asc'),
});

/** /utilisateurs: the list's data leaves with the screen's code (users.lazy.tsx), not after it. */
export const usersRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/utilisateurs',
  validateSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => prefetchForScreen(context, usersQueryOptions(context.api, usersListQuery(deps))),
}).lazy(() => import('./users.lazy').then((m) => m.Route));
