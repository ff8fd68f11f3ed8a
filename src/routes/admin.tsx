import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { listSearchFields, type ListSearch } from '../lib/list-search';
import { maybeOneOf, oneOf, searchValidator } from '../lib/search-params';
import { invitationsQueryOptions } from '../api/invitations';
import { invitationsListQuery } from '../lib/list-queries';
import { BACK_OFFICE_ONLY } from '../features/session/guarded';
import { guardBeforeLoad, prefetchWhenAllowed } from '../features/session/route-guard';

import { INVITATION_STATUS_FILTERS, WAITING_FILTERS, type InvitationStatusFilter, type WaitingFilter } from '../domain/invitation-status';

export type StatusFilter = InvitationStatusFilter;

export interface AdminSearch extends ListSearch {
  status: StatusFilter;
  /** Issue 24: pending requests that need a look (the Accueil's links). */
  waiting?: WaitingFilter;
  sort: 'id' | 'email' | 'createdAt';
}

/** Filter, search, sort, page and page size live in the URL: a link or a reload keeps them, back works. */
const validateSearch = searchValidator<AdminSearch>({
  status: oneOf(INVITATION_STATUS_FILTERS, 'all'),
  waiting: maybeOneOf(WAITING_FILTERS),
  sort: oneOf(['id', 'email', 'createdAt'], 'createdAt'),
  ...listSearchFields('desc'),
});

/** /admin: the requests' data leaves with the screen's code (admin.lazy.tsx), not after it, and only for the back office. */
export const adminRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/admin',
  validateSearch,
  beforeLoad: guardBeforeLoad(BACK_OFFICE_ONLY),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => prefetchWhenAllowed(context, BACK_OFFICE_ONLY, invitationsQueryOptions(context.api, invitationsListQuery(deps))),
}).lazy(() => import('./admin.lazy').then((m) => m.Route));
