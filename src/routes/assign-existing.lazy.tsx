import { createLazyRoute, Link, useRouter } from '@tanstack/react-router';
import { Guarded, USER_CREATE_REQUIRED } from '../features/session/guarded';
import { AssignExistingFlow } from '../features/assign-existing/assign-existing-flow';
import { useDocumentTitle } from '../lib/use-document-title';
import { isBackOffice } from '../../rules/permissions';
import { useSession } from '../session';
import { fr } from '../i18n/fr';
import type { AssignExistingSearch } from './assign-existing';

const t = fr.adminActions.assign;

function AssignExistingScreen() {
  const router = useRouter();
  const { api, queryClient } = Route.useRouteContext();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const profile = useSession((s) => s.context.profile);
  useDocumentTitle(t.documentTitle);
  if (!profile) return null;
  return (
    <AssignExistingFlow
      back={
        <Link to="/admin-actions" className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
          <span aria-hidden="true">←</span> {t.back}
        </Link>
      }
      api={api}
      queryClient={queryClient}
      senderEmail={profile.email}
      search={search.search}
      page={search.page}
      onSearchChange={(next: AssignExistingSearch) => void navigate({ search: next })}
      // Spec §2: 'Annuler' goes to /admin, the back office's list of requests; an organization user, who cannot open it, returns to the users list.
      onCancel={() => void router.navigate({ to: isBackOffice(profile) ? '/admin' : '/utilisateurs' })}
      onSubmitted={(toast) => void router.navigate({ to: '/utilisateurs', state: { toast } })}
    />
  );
}

export const Route = createLazyRoute('/shell/admin-actions/assign-existing')({
  component: () => (
    <Guarded requirement={USER_CREATE_REQUIRED}>
      <AssignExistingScreen />
    </Guarded>
  ),
});
