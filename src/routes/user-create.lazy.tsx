import { createLazyRoute } from '@tanstack/react-router';
import { Guarded, USER_CREATE_REQUIRED } from '../features/session/guarded';
import { CreationWizardFlow } from '../features/wizard/creation-wizard-flow';
import { useSession } from '../session';
import { hasPermission, isBackOffice } from '../../rules/permissions';
import { memberAdminSirens, type WizardMode } from '../domain/user-create';


function CreateScreen() {
  const { api, queryClient } = Route.useRouteContext();
  const { admin } = Route.useSearch();
  const profile = useSession((s) => s.context.profile);
  if (!profile) return null;
  const mode: WizardMode = admin ? 'admin' : 'user';
  const backOffice = isBackOffice(profile);
  const input = {
    mode,
    lockSirets: mode === 'admin' && (backOffice || hasPermission(profile, 'USER_CREATE')),
    senderEmail: profile.email || null,
    offeredSirens: backOffice ? null : memberAdminSirens(profile.organizations ?? []),
  };
  // A new wizard for each mode and person: nothing typed for one is sent as the other.
  return <CreationWizardFlow key={`${mode}-${profile.id}`} api={api} queryClient={queryClient} input={input} />;
}

export const Route = createLazyRoute('/shell/utilisateurs/creer')({
  component: () => (
    <Guarded requirement={USER_CREATE_REQUIRED} firstScreen>
      <CreateScreen />
    </Guarded>
  ),
});
