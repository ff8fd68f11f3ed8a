import { lazy, Suspense } from 'react';
import { createRoute, Link } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { useSession } from '../session';
import { isBackOffice } from '../../rules/permissions';
import { DashboardPage } from '../ui/dashboard-page';
import { useDocumentTitle } from '../lib/use-document-title';
import { frShell as fr } from '../i18n/fr-shell';
import { HomeWorkSection } from '../ui/home-work-section';
import { homeQueryOptions } from '../api/home';
import { prefetchForScreen } from '../lib/route-prefetch';

// 'À traiter' (issue 24) draws after the first screen (its budget); its counts left with the route's loader.
const HomeWork = lazy(() => import('../features/home/home-work'));
const workLoading = <HomeWorkSection title={fr.dashboard.work} state={{ kind: 'loading', label: fr.dashboard.workLoading }} />;

function Dashboard() {
  const { config, api } = dashboardRoute.useRouteContext();
  const backOffice = useSession((s) => (s.context.profile ? isBackOffice(s.context.profile) : false));
  useDocumentTitle(fr.dashboard.title);
  // The workflow charts are for back-office analysts; they have no sidebar entry (spec §2's list is exact).
  const shortcuts = backOffice && (
    <Link to="/workflows" className="font-medium text-brand-700 hover:underline">
      {fr.workflows.shortcut}
    </Link>
  );
  return <DashboardPage memberAreaUrl={config.memberAreaUrl} work={
        <Suspense fallback={workLoading}>
          <HomeWork api={api} />
        </Suspense>
      } shortcuts={shortcuts || null} />;
}

export const dashboardRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/dashboard',
  // The counts leave with the route (issue 24): the screen shows them, their loading or their failure.
  loader: ({ context }) => prefetchForScreen(context, homeQueryOptions(context.api)),
  component: Dashboard,
});
