import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { listSearchFields, type ListSearch } from '../lib/list-search';
import { matching, maybeOneOf, oneOf, searchValidator, uuid } from '../lib/search-params';
import { ACCOUNT_STATES, type AccountStateFilter } from '../domain/account-states';
import { prefetchForScreen } from '../lib/route-prefetch';
import { usersQueryOptions } from '../api/users';
import { usersListQuery } from '../lib/list-queries';

export interface UsersSearch extends ListSearch {
  siren?: string;
  siret?: string;
  role?: string;
  /** 'État du compte' (issue 23): absent, every account. */
  accountState?: AccountStateFilter;
  sort: 'name' | 'email' | 'lastLogin';
}

/** SIREN, SIRET, role, state of the account, search, sort and page live in the URL: a link or a reload keeps them, back works. */
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
