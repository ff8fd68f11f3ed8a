import { useEffect } from 'react';
import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './root';
import { useSession, useSessionActor } from '../session';
import { canSignOut } from '../machines/session/session.selectors';
import { StatusPage } from '../ui/status-page';
import { Spinner } from '../ui/spinner';
import { useDocumentTitle } from '../lib/use-document-title';
import { frShell as fr } from '../i18n/fr-shell';

/** Empties local and session storage, expires the cookie and signs out at the provider (session machine). */
function SignOut() {
  const actor = useSessionActor();
  const ready = useSession(canSignOut);
  useDocumentTitle(fr.shell.nav.signOut);
  useEffect(() => {
    if (ready) actor.send({ type: 'session.signOut' });
  }, [ready, actor]);
  return (
    <StatusPage title={fr.shell.nav.signOut}>
      <Spinner label={fr.auth.signingOut} />
    </StatusPage>
  );
}

export const signOutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/authentication/sign-out',
  component: SignOut,
});
