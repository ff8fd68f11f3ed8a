import { useEffect } from 'react';
import { createRoute, useRouter } from '@tanstack/react-router';
import { rootRoute } from './root';
import { useSession, useSessionActor } from '../session';
import { isSignedIn, isSignedOut } from '../machines/session/session.selectors';
import { StatusPage } from '../ui/status-page';
import { Spinner } from '../ui/spinner';
import { useDocumentTitle } from '../lib/use-document-title';
import { frShell as fr } from '../i18n/fr-shell';

/** Starts the redirect sign-in (after 1 s, in the session machine), or goes to /dashboard when a valid token is already there. */
function SignIn() {
  const router = useRouter();
  const actor = useSessionActor();
  const signedIn = useSession(isSignedIn);
  const signedOut = useSession(isSignedOut);
  useDocumentTitle(fr.landing.signIn);
  useEffect(() => {
    if (signedIn) void router.navigate({ to: '/dashboard', replace: true });
    else if (signedOut) actor.send({ type: 'session.signIn' });
  }, [signedIn, signedOut, actor, router]);
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
