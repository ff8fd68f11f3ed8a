import { createLazyRoute, Link, useRouter } from '@tanstack/react-router';
import { Guarded, USER_CREATE_REQUIRED } from '../features/session/guarded';
import { useDocumentTitle } from '../lib/use-document-title';
import { AdminActionsChooser } from '../ui/admin-actions/admin-actions-chooser';
import { SupportHelpBox } from '../ui/admin-actions/support-help-box';
import { fr } from '../i18n/fr';


function ChooserScreen() {
  const router = useRouter();
  const { config } = Route.useRouteContext();
  useDocumentTitle(fr.adminActions.chooser.documentTitle);
  return (
    <AdminActionsChooser
      // The creation wizard, in administrator mode (spec §2).
      onCreateAccount={() => void router.navigate({ to: '/utilisateurs/creer', search: { admin: true } })}
      onAssignExisting={() => void router.navigate({ to: '/admin-actions/assign-existing' })}
      myRequests={
        <Link to="/admin-actions/demandes" className="font-semibold text-brand-700 underline hover:text-brand-800">
          {fr.myRequests.link}
        </Link>
      }
      help={<SupportHelpBox {...config.support} />}
    />
  );
}

export const Route = createLazyRoute('/shell/admin-actions')({
  component: () => (
    <Guarded requirement={USER_CREATE_REQUIRED}>
      <ChooserScreen />
    </Guarded>
  ),
});
