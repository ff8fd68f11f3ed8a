import { useEffect } from 'react';
import { createRoute, useRouter } from '@tanstack/react-router';
import { rootRoute } from './root';
import { useSession, useSessionActor } from '../session';
import { StatusPage } from '../ui/status-page';
import { Spinner } from '../ui/spinner';
import { useDocumentTitle } from './use-document-title';
import { fr } from '../i18n/fr';

/** Starts the redirect sign-in (after 1 s, in the session machine), or goes to /dashboard when a valid token is already there. */
function SignIn() {
  const router = useRouter();
  const actor = useSessionActor();
  const state = useSession((s) => String(s.value));
  useDocumentTitle(fr.landing.signIn);
  useEffect(() => {
    if (state === 'signedIn' || state === 'polling') void router.navigate({ to: '/dashboard', replace: true });
    else if (state === 'signedOut') actor.send({ type: 'session.signIn' });
  }, [state, actor, router]);
  return (
    <StatusPage title={fr.landing.signIn}>
      <Spinner label={fr.auth.signingIn} />
    </StatusPage>
  );
}

export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/authentication/sign-in',
  component: SignIn,
});
