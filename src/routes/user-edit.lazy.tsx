import { createLazyRoute, Link } from '@tanstack/react-router';
import { isUuid } from '../lib/search-params';
import { useDocumentTitle } from '../lib/use-document-title';
import { UserEditFlow } from '../features/user-edit/user-edit-flow';
import { useSession } from '../session';
import { hasPermission, isBackOffice } from '../../rules/permissions';
import { UserNotFound } from '../ui/users/user-notices';
import { fr } from '../i18n/fr';

/** Spec §2: the edit page, behind its extra guard (oneself; a non-back-office person and a holder of an INTERNAL role), which the machine applies. */
function EditScreen() {
  const { api, queryClient } = Route.useRouteContext();
  const { userId } = Route.useParams();
  const profile = useSession((s) => s.context.profile);
  useDocumentTitle(fr.userEdit.documentTitle);
  if (!profile) return null;
  if (!isUuid(userId)) {
    return (
      <UserNotFound>
        <Link to="/utilisateurs" className="text-brand-700 underline">
          {fr.userEdit.back}
        </Link>
      </UserNotFound>
    );
  }
  return (
    <UserEditFlow
      key={userId}
      api={api}
      queryClient={queryClient}
      userId={userId}
      editor={{ id: profile.id, backOffice: isBackOffice(profile) }}
      canSearchSirens={hasPermission(profile, 'ORG_LIST')}
    />
  );
}

export const Route = createLazyRoute('/shell/utilisateurs/edit/$userId')({ component: EditScreen });
