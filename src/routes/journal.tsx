import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { USER_LIST_REQUIRED } from '../features/session/guarded';
import { guardBeforeLoad } from '../features/session/route-guard';
import { listSearchFields, type ListSearch } from '../lib/list-search';
import { matching, oneOf, searchValidator, uuid } from '../lib/search-params';
import { JOURNAL_ACTION_GROUP_KEYS, type JournalActionGroup } from '../domain/journal-groups';

export interface JournalSearch extends Omit<ListSearch, 'order'> {
  from?: string;
  to?: string;
  action?: JournalActionGroup;
  actorId?: string;
  userId?: string;
  siren?: string;
  siret?: string;
}

const day = matching(/^\d{4}-\d{2}-\d{2}$/);
const { order: _order, ...listFields } = listSearchFields('desc');

/** Period, kind, author, person, organization, search and page live in the URL: a link or a reload keeps them. */
const validateSearch = searchValidator<JournalSearch>({
  from: day,
  to: day,
  action: (raw) => oneOf([...JOURNAL_ACTION_GROUP_KEYS, ''], '')(raw) || undefined,
  actorId: uuid,
  userId: uuid,
  siren: uuid,
  siret: uuid,
  ...listFields,
});

/** /journal, 'Journal des modifications' (issue 21): the screen's code loads with the route (journal.lazy.tsx). */
export const journalRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/journal',
  beforeLoad: guardBeforeLoad(USER_LIST_REQUIRED),
  validateSearch,
}).lazy(() => import('./journal.lazy').then((m) => m.Route));
