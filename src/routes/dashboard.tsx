import { createRoute } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { DashboardPage } from '../ui/dashboard-page';
import { useDocumentTitle } from './use-document-title';
import { fr } from '../i18n/fr';

function Dashboard() {
  const { config } = dashboardRoute.useRouteContext();
  useDocumentTitle(fr.dashboard.title);
  return <DashboardPage memberAreaUrl={config.memberAreaUrl} />;
}

export const dashboardRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/dashboard',
  component: Dashboard,
});
