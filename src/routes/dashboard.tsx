import { createRoute, Link } from '@tanstack/react-router';
import { shellRoute } from './shell';
import { useSession } from '../session';
import { isBackOffice } from '../../rules/permissions';
import { DashboardPage } from '../ui/dashboard-page';
import { useDocumentTitle } from '../lib/use-document-title';
import { frShell as fr } from '../i18n/fr-shell';

function Dashboard() {
  const { config } = dashboardRoute.useRouteContext();
  const backOffice = useSession((s) => (s.context.profile ? isBackOffice(s.context.profile) : false));
  useDocumentTitle(fr.dashboard.title);
  // The workflow charts are for back-office analysts; they have no sidebar entry (spec §2's list is exact).
  const shortcuts = backOffice && (
    <Link to="/workflows" className="font-medium text-brand-700 hover:underline">
      {fr.workflows.shortcut}
    </Link>
  );
  return <DashboardPage memberAreaUrl={config.memberAreaUrl} shortcuts={shortcuts || null} />;
}

export const dashboardRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/dashboard',
  component: Dashboard,
});
