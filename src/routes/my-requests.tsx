import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { USER_CREATE_REQUIRED } from '../features/session/guarded';
import { guardBeforeLoad } from '../features/session/route-guard';
import { listSearchFields, type ListSearch } from '../lib/list-search';
import { oneOf, searchValidator } from '../lib/search-params';
import { INVITATION_STATUS_FILTERS, type InvitationStatusFilter } from '../domain/invitation-status';

export interface MyRequestsSearch extends Pick<ListSearch, 'page' | 'pageSize'> {
  status: InvitationStatusFilter;
}

const { page, pageSize } = listSearchFields('desc');

/** The status filter, the page and its size live in the URL. */
const validateSearch = searchValidator<MyRequestsSearch>({ status: oneOf(INVITATION_STATUS_FILTERS, 'all'), page, pageSize });

/** /admin-actions/demandes ('Mes demandes', issue 22): the requests the signed-in person made. */
export const myRequestsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/admin-actions/demandes',
  beforeLoad: guardBeforeLoad(USER_CREATE_REQUIRED),
  validateSearch,
}).lazy(() => import('./my-requests.lazy').then((m) => m.Route));
