// The Accueil's 'À traiter' (issue 24): the counts of GET /api/v2/home, each line a link to the filtered list that
// holds the work (typed links with their search parameters), with a loading, an error and an empty state.
import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { homeQueryOptions, type Home } from '../../api/home';
import { homeWorkLines, type HomeWorkItem } from '../../domain/home-work';
import { frHome as t } from '../../i18n/fr-home';
import { frShell } from '../../i18n/fr-shell';
import { HomeWorkSection } from '../../ui/home-work-section';

const title = frShell.dashboard.work;
const LINK = 'font-medium text-brand-700 underline-offset-2 hover:underline';

/** Each item's text and the list it links to. A new item is one entry here, one in fr-shell and one in domain/home-work. */
function linkTo(item: HomeWorkItem, count: number, home: Home): ReactNode {
  switch (item) {
    case 'pendingRequests':
      return <Link to="/admin" search={{ status: 'PENDING' }} className={LINK}>{t.pendingRequests(count)}</Link>;
    case 'longPendingRequests':
      return <Link to="/admin" search={{ status: 'PENDING', waiting: 'longPending' }} className={LINK}>{t.longPendingRequests(count, home.reminderPendingDays)}</Link>;
    case 'expiringRequests':
      return <Link to="/admin" search={{ status: 'PENDING', waiting: 'expiringSoon' }} className={LINK}>{t.expiringRequests(count, home.expiringWithinDays)}</Link>;
    case 'setupLinkExpiredUsers':
      return <Link to="/utilisateurs" search={{ accountState: 'setupLinkExpired' }} className={LINK}>{t.setupLinkExpiredUsers(count)}</Link>;
    case 'myPendingRequests':
      return <Link to="/admin-actions/demandes" search={{ status: 'PENDING' }} className={LINK}>{t.myPendingRequests(count)}</Link>;
    case 'invitationNotAcceptedUsers':
      return <Link to="/utilisateurs" search={{ accountState: 'invitationNotAccepted' }} className={LINK}>{t.invitationNotAcceptedUsers(count)}</Link>;
    case 'dormantUsers':
      return <Link to="/utilisateurs" search={{ accountState: 'dormant' }} className={LINK}>{t.dormantUsers(count)}</Link>;
  }
}

export default function HomeWork({ api }: { api: ApiClient }) {
  const query = useQuery(homeQueryOptions(api));
  if (query.isPending) return <HomeWorkSection title={title} state={{ kind: 'loading', label: frShell.dashboard.workLoading }} />;
  if (query.isError) return <HomeWorkSection title={title} state={{ kind: 'failed', message: t.failed, retry: t.retry, onRetry: () => void query.refetch() }} />;
  const home = query.data;
  const lines = homeWorkLines(home).map((line) => ({
    key: line.item,
    content: line.detail ? (
      <>
        {linkTo(line.item, line.count, home)}, {linkTo(line.detail.item, line.detail.count, home)}
      </>
    ) : (
      linkTo(line.item, line.count, home)
    ),
  }));
  return <HomeWorkSection title={title} state={lines.length ? { kind: 'lines', lines } : { kind: 'empty', message: t.nothing }} />;
}
